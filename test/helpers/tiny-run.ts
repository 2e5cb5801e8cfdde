// The tiny spec run for real in its shortest forms, for the tests that start one: the arguments of one
// raw timing process, and a run started in the background for a test to race or interrupt.
import path from 'node:path';
import { execa } from 'execa';
import { readJournal } from '../../src/records/journal.ts';
import { FIXTURES, ROOT } from '../helpers.ts';

export const TINY = path.join(FIXTURES, 'specs/tiny.yaml');

/** Only the tiny spec's raw cell of its first contract, in one timing process. */
export const ONE_RAW_PROCESS = ['--only', 'A/single_module_output/raw/*', '--processes', '1'];

/** `run` of the tiny spec's `selection` into `out`, with the test interpreter `python`. */
export const runTiny = (selection: string[], out: string, python: string): string[] => [
  'run',
  TINY,
  ...selection,
  '--out',
  out,
  '--python',
  python,
];

/** `benchgrid ARGS` started and not awaited, as from a terminal: no colour, and it never rejects. */
export function startCli(args: string[]) {
  return execa(process.execPath, [path.join(ROOT, 'bin/benchgrid.js'), ...args], {
    reject: false,
    env: { NO_COLOR: '1' },
  });
}

/** Waits until the journal in `out` holds `records` records, or five minutes have passed. */
export async function journalHolds(out: string, records: number): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline && readJournal(out).records.length < records)
    await new Promise((r) => setTimeout(r, 200));
}
