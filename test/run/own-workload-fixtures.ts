// Shared by the tests that run a workload of one's own: the quick protocol both specs use, the digest the
// harness records for loaded weights, and the cells of one group and subject.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Results } from '../../src/results/model.ts';

/** A protocol quick enough for real runs in a test, with every process still timed. */
export const PROTOCOL =
  'protocol: { warmups: 1, samples: 3, processes: 2, min_samples: 2, budget_s_per_cell: 4, memory_runs: 0, aa_pairs: 0, timeout_s: 300 }';

/** The digest the harness records: sha256 over each file's path (relative, sorted) and bytes, NUL after each. */
export function expectedDigest(root: string): string {
  const files = fs.statSync(root).isFile()
    ? [['', root]]
    : (fs.readdirSync(root, { recursive: true }) as string[])
        .map((f) => [f.split(path.sep).join('/'), path.join(root, f)])
        .filter(([, f]) => fs.statSync(f).isFile())
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const h = crypto.createHash('sha256');
  for (const [rel, full] of files)
    h.update(Buffer.concat([Buffer.from(rel, 'utf8'), Buffer.from([0]), fs.readFileSync(full), Buffer.from([0])]));
  return `sha256:${h.digest('hex')}`;
}

/** The cells of one group and subject, in the plan's order. */
export const cells = (r: Results, group: string, subject: string) =>
  r.cells.filter((c) => c.group === group && c.subject === subject);
