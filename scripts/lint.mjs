#!/usr/bin/env node
// `npm run lint`: the formatter and linter checks of the whole tree, TypeScript with Biome (biome.jsonc) and
// Python with ruff (ruff.toml), one line per offending file; exit 1 when any. `npm run format` (--fix) formats
// both and applies the linters' safe fixes. ruff is a PyPI package: the pinned release is installed once into
// the cache's tools/ by the code that installs uv (src/env/pip-tool.ts), so a machine with Node and Python has it.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { tsImport } from 'tsx/esm/api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The ruff release the check runs: a newer one is an explicit change here (its fixes and style move with it). */
export const RUFF_VERSION = '0.17.5';
/** Where the Python lives; TypeScript's scope is in biome.jsonc. */
const PYTHON_DIRS = ['runners', 'test', 'scripts', 'bench', 'specs'];

/** The pinned ruff's binary, installed on first use with this machine's python3 (or $BENCHGRID_LINT_PYTHON). */
async function ruff() {
  const { pipTool } = await tsImport('../src/env/pip-tool.ts', import.meta.url);
  const python = process.env.BENCHGRID_LINT_PYTHON || 'python3';
  const tool = { name: 'ruff', version: RUFF_VERSION, purpose: 'the Python formatter and linter' };
  return pipTool(tool, python, (line) => console.error(line));
}

const run = (file, args) => execa(file, args, { cwd: ROOT, reject: false, all: true, env: { NO_COLOR: '1' } });
const biome = (args) => run(path.join(ROOT, 'node_modules/.bin/biome'), args);

/** `file: what` per finding of Biome's GitHub reporter (`::error title=RULE,file=F,line=N,...::message`). */
function biomeFindings(output) {
  return [...output.matchAll(/^::(?:error|warning|notice) title=([^,]+),file=([^,]+),line=(\d+)/gm)].map(
    ([, rule, file, line]) => ({
      file: path.relative(ROOT, file),
      what: rule === 'format' ? 'not formatted' : `${rule} (line ${line})`,
    }),
  );
}

/** Findings of `ruff format --check` (`Would reformat: F`) and `ruff check --output-format=concise` (`F:L:C: CODE ...`). */
function ruffFindings(output) {
  const out = [];
  for (const line of output.split('\n')) {
    const unformatted = /^Would reformat: (.+)$/.exec(line);
    if (unformatted) out.push({ file: unformatted[1], what: 'not formatted' });
    const finding = /^(.+?):(\d+):\d+: ([A-Z]+\d+) /.exec(line);
    if (finding) out.push({ file: finding[1], what: `ruff ${finding[3]} (line ${finding[2]})` });
  }
  return out;
}

/** A tool that exits non-zero with no finding read from its output (a crash, a bad config) is a finding too. */
function orBroken(name, result, findings) {
  if (result.exitCode === 0 || findings.length > 0) return findings;
  return [
    {
      file: name,
      what: `exited ${result.exitCode ?? result.shortMessage}: ${result.all?.trim().split('\n').slice(-5).join(' | ')}`,
    },
  ];
}

/** Every formatting and lint finding of the tree, `{ file, what }`, none when it is clean. */
export async function lintFindings() {
  const b = await biome(['check', '--reporter=github', '--error-on-warnings', '--max-diagnostics=none']);
  const r = await ruff();
  const rf = await run(r, ['format', '--check', '--no-cache', ...PYTHON_DIRS]);
  const rc = await run(r, ['check', '--output-format=concise', '--no-fix', '--no-cache', ...PYTHON_DIRS]);
  return [
    ...orBroken('biome', b, biomeFindings(b.all)),
    ...orBroken('ruff format', rf, ruffFindings(rf.all)),
    ...orBroken('ruff check', rc, ruffFindings(rc.all)),
  ];
}

/**
 * Formats the tree and applies the safe fixes of both linters; what is left for a person is the check's to say.
 * Each formatter runs again after the fixes: Biome settles some member chains only on a second pass, and ruff's
 * fixes may leave code to format (the check finds a marker on a line the formatter has not placed yet).
 */
async function fix() {
  const r = await ruff();
  const py = (args) => run(r, [...args, '--quiet', '--no-cache', ...PYTHON_DIRS]);
  const ts = () => biome(['check', '--write', '--max-diagnostics=none']);
  await py(['format']);
  await py(['check', '--fix']);
  await ts();
  const steps = [
    ['ruff format', await py(['format'])],
    ['ruff check', await py(['check'])],
    ['biome', await ts()],
  ];
  for (const [name, result] of steps)
    if (result.exitCode !== 0) console.log(`${name}: findings left to fix by hand (npm run lint lists them)`);
}

/** One line per offending file: its findings, the first few named. */
export function describeFindings(findings) {
  const byFile = new Map();
  for (const f of findings) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f.what]);
  return [...byFile].map(
    ([file, whats]) =>
      `${file}: ${whats.slice(0, 4).join(', ')}${whats.length > 4 ? `, and ${whats.length - 4} more` : ''}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv.includes('--fix')) {
    await fix();
  } else {
    const lines = describeFindings(await lintFindings());
    for (const line of lines) console.log(line);
    console.log(
      lines.length === 0
        ? 'lint: clean'
        : `lint: ${lines.length} file(s) to fix; \`npm run format\` fixes formatting and safe lint fixes`,
    );
    process.exitCode = lines.length === 0 ? 0 : 1;
  }
}
