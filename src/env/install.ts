// Installs requirements into a new environment with the chosen installer (uv.ts): `uv pip install` or
// `python -m pip install`, the same requirements file, the same index options and pins. Output is
// appended to the build's log and read on the way for the progress line.
import { startTree } from './interrupt.ts';
import { pipInstall, pipProgress } from './pip-progress.ts';
import { pipIndexArgs } from './pip-index.ts';
import type { PackageIndex } from '../spec/types.ts';
import { pipConfigOptions, UV_ENV, uvPhase, type Installer } from './uv.ts';

/** One installation into the environment of `python`. */
export interface Install {
  python: string;
  index: PackageIndex;
  /** After the index options: `-r FILE`, `--no-deps`, ... (options both installers read alike). */
  args: string[];
  logFile: string;
  envId: string;
  log: (line: string) => void;
}

/** Runs the installation; rejects when the installer fails (the log says why). */
export async function install(installer: Installer, i: Install): Promise<void> {
  if (installer.kind === 'pip')
    return pipInstall(i.python, [...pipIndexArgs(i.index), ...i.args], i.logFile, i.envId, i.log);
  const own = {
    index_url: i.index.index_url !== null,
    extra_index_urls: i.index.extra_index_urls.length > 0,
    find_links: i.index.find_links.length > 0,
  };
  const options = [
    'pip',
    'install',
    '--python',
    i.python,
    // pip's rule: the best version over every index named. uv's own default takes the first index that has
    // the package at all, which, with a local mirror or a CPU index beside PyPI, would resolve differently.
    '--index-strategy',
    'unsafe-best-match',
    // pip writes .pyc files at install; without them every fresh cell process would compile torch again.
    '--compile-bytecode',
    ...(await pipConfigOptions(i.python, own)),
    ...pipIndexArgs(i.index),
    ...i.args,
  ];
  const progress = pipProgress(i.envId, i.log, Date.now, uvPhase, 'starting uv');
  const uv = startTree('uv', installer.uv, options, {
    stdout: { file: i.logFile, append: true },
    stderr: ['pipe', { file: i.logFile, append: true }],
    buffer: false,
    env: UV_ENV,
  });
  uv.stderr.on('data', (chunk: Buffer) => progress.feed(chunk.toString('utf8')));
  try {
    await uv;
  } finally {
    progress.stop();
  }
}

/** Names the requirement uv could not install, from its output; null when it names none. */
export function uvFailure(output: string): string | null {
  const m =
    /there is no version of ([^\s,]+)/.exec(output) ??
    /Because ([^\s]+) was not found in the package registry/.exec(output) ??
    /Failed to (?:build|download) `([^`]+)`/.exec(output);
  if (!m) return null;
  const line = output.split('\n').find((l) => /^\s*(×|╰─▶|error:)/.test(l) && !/^\s*×\s*No solution found/.test(l));
  return `uv could not install '${m[1]}'${line ? ` (${line.replace(/^\s*(×|╰─▶|error:)\s*/, '').slice(0, 200)})` : ''}`;
}
