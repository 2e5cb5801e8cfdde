#!/usr/bin/env node
// The Python harness's unit tests (runners/harness/tests), run with the interpreter the vitest tests use
// (test/helpers.ts `testPython`: the resnet18 specs' `main` environment, or $BENCHGRID_TEST_PYTHON).
// `npm run test:py` runs them alone; scripts/test.mjs adds their counts to npm test's closing line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { tsImport } from 'tsx/esm/api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNNER = path.join(ROOT, 'runners/harness/tests/run.py');
const NOTHING_RAN = { passed: 0, failed: 1, skipped: 0 };

/** The test Python, found as the vitest tests find it; `setup` first builds its environment when missing. */
async function findPython(setup) {
  if (setup) await (await tsImport('../test/global-setup.ts', import.meta.url)).default();
  return (await tsImport('../test/helpers.ts', import.meta.url)).testPython();
}

/**
 * Runs the harness's unit tests, their report on this process's output, and returns their counts. A Python
 * that cannot be found, or a run that reports no counts, is one failure: these tests are never skipped.
 */
export async function pythonTests({ setup = false } = {}) {
  let python;
  try {
    python = await findPython(setup);
  } catch (e) {
    console.error(
      `harness unit tests: no Python with torch to run them (${e instanceof Error ? e.message : e}); counted as 1 failed`,
    );
    return NOTHING_RAN;
  }
  console.log(`\nharness unit tests (runners/harness/tests) with ${python}`);
  const counts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-pytests-')), 'counts.json');
  // No bytecode written into the repository's runners/ by a test run.
  const r = await execa(python, [RUNNER, '--json', counts], {
    cwd: ROOT,
    stdio: 'inherit',
    reject: false,
    timeout: 300_000,
    env: { PYTHONDONTWRITEBYTECODE: '1' },
  });
  let got;
  try {
    got = JSON.parse(fs.readFileSync(counts, 'utf8'));
  } catch {
    console.error(
      `harness unit tests: the runner reported no counts (${r.exitCode !== undefined ? `exit ${r.exitCode}` : r.shortMessage}); counted as 1 failed`,
    );
    return NOTHING_RAN;
  }
  const result = { passed: got.passed, failed: got.failed, skipped: got.skipped };
  // A runner that exits non-zero with nothing failed (nothing ran, or it broke after counting) is a failure too.
  if (r.exitCode !== 0 && result.failed === 0) result.failed = 1;
  console.log(
    `harness unit tests: ${result.passed} passed, ${result.failed} failed${result.skipped ? `, ${result.skipped} skipped` : ''}`,
  );
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { failed } = await pythonTests({ setup: true });
  process.exitCode = failed === 0 ? 0 : 1;
}
