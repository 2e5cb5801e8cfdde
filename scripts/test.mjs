#!/usr/bin/env node
// `npm test`: the whole vitest suite, then the Python harness's unit tests (scripts/test-python.mjs), then
// one plain `N passed, N failed` line counting both (CI reads it). Arguments go to vitest.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { pythonTests } from './test-python.mjs';

const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-vitest-')), 'results.json');
const r = await execa(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    reject: false,
  },
);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const j = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed = j.numPassedTests;
  // A file that failed outside its tests (an import error, a failing beforeAll that skips them) counts as one
  // failure, so the closing line never says 0 failed while the run failed.
  const brokenFiles = j.testResults.filter(
    (s) => s.status === 'failed' && !s.assertionResults.some((a) => a.status === 'failed'),
  ).length;
  failed = j.numFailedTests + brokenFiles;
  skipped = j.numPendingTests + j.numTodoTests;
} catch {
  failed = Math.max(1, failed);
}
// vitest failing with no test failed (no test file matched, a crash after the report) is one failure too.
if (r.exitCode !== 0 && failed === 0) failed = 1;
// vitest's global setup has built the test environment by now (test/global-setup.ts).
const py = await pythonTests();
passed += py.passed;
failed += py.failed;
skipped += py.skipped;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = r.exitCode === 0 && failed === 0 ? 0 : 1;
