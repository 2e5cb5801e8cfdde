// Memory growth per call in real processes (docs/protocol.md, "Memory"): a tool that keeps a mebibyte per
// call is marked in every report with about that figure; the hooks reference on the same subject, and a tool
// that holds only its latest call's mebibyte, are not.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../src/results/model.ts';
import { cli, FIXTURES, runSpec } from '../helpers.ts';

const MIB = 1024 * 1024;
const cellOf = (tool: string) => `M/single_module_output/${tool}/resnet18`;

let out: string;
let results: Results;

beforeAll(async () => {
  ({ out, results } = await runSpec(path.join(FIXTURES, 'specs/memory-growth.yaml'), 600_000));
}, 620_000);

/** Every timing process's result file of a cell. */
function processResults(tool: string): {
  timing: {
    samples_ms: number[];
    memory_growth?: { calls: number; per_call_bytes: { rss: number | null; cuda: number | null } };
  };
}[] {
  const dir = path.join(out, 'processes', cellOf(tool).replaceAll('/', '+'));
  return fs
    .readdirSync(dir)
    .filter((f) => /^time-\d+\.result\.json$/.test(f))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

describe('memory kept per call', () => {
  it('is read by every timing process over the calls it sampled, RSS only on the CPU', () => {
    for (const tool of ['hooks', 'mebibyte', 'last']) {
      const processes = processResults(tool);
      expect(processes).toHaveLength(3);
      for (const p of processes) {
        expect(p.timing.memory_growth?.calls).toBe(p.timing.samples_ms.length);
        expect(p.timing.memory_growth?.per_call_bytes.cuda).toBeNull();
        expect(typeof p.timing.memory_growth?.per_call_bytes.rss).toBe('number');
      }
    }
  });

  it('marks the tool that keeps a mebibyte per call, within 20% of a mebibyte, in every process', () => {
    const c = results.cells.find((x) => x.id === cellOf('mebibyte'))!;
    expect(c.status).toBe('ok');
    expect(c.exact).toBe('bit');
    const [mark, ...others] = c.memory_growth!.grows;
    expect(others).toEqual([]);
    expect(mark).toMatchObject({ counter: 'rss', processes: 3, of: 3 });
    expect(Math.abs(mark.per_call_bytes - MIB)).toBeLessThan(0.2 * MIB);
  });

  it('leaves the hooks reference and a tool holding only its latest call unmarked', () => {
    for (const tool of ['hooks', 'last'])
      expect(results.cells.find((x) => x.id === cellOf(tool))!.memory_growth!.grows).toEqual([]);
    // raw is timed in its row's blocks before the import, which read no growth.
    expect(results.cells.find((x) => x.id === cellOf('raw'))!.memory_growth ?? null).toBeNull();
  });

  it('says so in the markdown page, the HTML report, the terminal table and the JSON', async () => {
    const mark = /memory: grows \d+ KiB per call/g;
    const md = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md.match(mark)).toHaveLength(1);
    expect(md.split('\n').find((l) => l.includes('memory: grows'))).toMatch(
      /^\| [^|]*\| (mebibyte|keeps a mebibyte per call) \|/,
    );
    expect(fs.readFileSync(path.join(out, 'report.html'), 'utf8')).toMatch(mark);
    const table = await cli(['report', out, '--format', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.match(mark)).toHaveLength(1);
    const json = await cli(['report', out, '--format', 'json']);
    const cells = JSON.parse(json.stdout).cells as { id: string; memory_growth: { grows: unknown[] } | null }[];
    expect(cells.filter((x) => (x.memory_growth?.grows.length ?? 0) > 0).map((x) => x.id)).toEqual([
      cellOf('mebibyte'),
    ]);
  });
});
