// `validate --check-index`: asks the package index (through pip, as configured on this machine) which
// releases of each versioned tool's package exist. Off by default: validate needs no network otherwise,
// and a version missing from the index is then reported when its environment is built.
import path from 'node:path';
import { execa } from 'execa';
import { checkForeignInterpreter } from './interpreter.ts';
import { UserError } from '../errors.ts';
import { diag, ptr, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { NO_INDEX, type PackageIndex, type Spec } from '../spec/types.ts';
import { pipIndexArgs } from './pip-index.ts';
import { compareVersions } from '../spec/version-range.ts';

/** Releases of a package on the index, newest first; an Error says why the index could not tell. */
export type AskIndex = (python: string, pkg: string, index: PackageIndex) => Promise<string[] | Error>;

/**
 * Asks with `python -m pip index versions PKG`: the environment's own index options, and pip's own
 * configuration (indexes, find-links, proxies) for what they do not set.
 */
export const askPip: AskIndex = async (python, pkg, index) => {
  const r = await execa(python, ['-m', 'pip', 'index', 'versions', ...pipIndexArgs(index), pkg], {
    reject: false,
    timeout: 120_000,
    stdin: 'ignore',
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('Available versions:'));
  if (line)
    return line
      .replace('Available versions:', '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  if (/No matching distribution/.test(r.stderr)) return [];
  const why = (
    r.stderr
      .trim()
      .split('\n')
      .filter((l) => !/^WARNING/.test(l))
      .pop() ?? `exit ${r.exitCode}`
  ).slice(0, 200);
  return new Error(`pip could not list the releases of ${pkg}: ${why}`);
};

/** One error per declared release the index does not have, listing the releases it does have. */
export async function checkIndex(spec: Spec, ask: AskIndex = askPip): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const asked = new Map<string, string[] | Error>();
  for (const t of Object.values(spec.tools)) {
    if (t.versions.length === 0 || t.version !== null) continue;
    const first = spec.tools[`${t.id}@${t.versions[0]}`];
    const pkg = first?.package;
    if (!pkg) continue;
    const env = spec.environments[t.environment];
    const python = env?.python ?? 'python3';
    const index = env?.index ?? NO_INDEX;
    // Asked once per package and index: two environments may take one package from different indexes.
    const question = JSON.stringify([pkg, index]);
    if (!asked.has(question)) asked.set(question, await askChecked(ask, python, pkg, index, path.dirname(spec.file)));
    const known = asked.get(question)!;
    const base = ptr('tools', t.id, 'versions');
    if (known instanceof Error) {
      out.push(
        diag(
          'warning',
          'index-unavailable',
          positionOf(spec.positions, base, spec.file),
          base,
          `${known.message}.`,
          'Check the network or pip configuration; the versions are checked again when their environments are built.',
        ),
      );
      continue;
    }
    t.versions.forEach((v, i) => {
      if (known.some((k) => compareVersions(k, v) === 0 && k.length === v.length)) return;
      const p = `${base}/${i}`;
      const list = [...known].sort((a, b) => compareVersions(b, a));
      const shown =
        list.length === 0
          ? 'it has no release of that name'
          : `it has ${list.slice(0, 12).join(', ')}${list.length > 12 ? `, and ${list.length - 12} older` : ''}`;
      out.push(
        diag(
          'error',
          'unknown-version',
          positionOf(spec.positions, p, spec.file),
          p,
          `${pkg} ${v} is not on the package index; ${shown}.`,
          'Use a release the index has.',
        ),
      );
    });
  }
  return out;
}

/** Asks only an interpreter installed on this machine, never one the spec brought (--check-index only reads it). */
async function askChecked(
  ask: AskIndex,
  python: string,
  pkg: string,
  index: PackageIndex,
  specDir: string,
): Promise<string[] | Error> {
  try {
    checkForeignInterpreter(python, specDir);
  } catch (error) {
    if (error instanceof UserError)
      return new Error(`pip was not asked about ${pkg}: ${error.message.replace(/\.$/, '')}`);
    throw error;
  }
  return ask(python, pkg, index);
}
