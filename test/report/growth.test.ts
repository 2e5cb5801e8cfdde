// Growth over swept subjects (`tiny@seq=16`, ...) in the terminal report, the markdown page and the JSON report.
import { describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { growthFamilies, sweepPairs, withGrowth } from '../../src/report/growth.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { buildSummary, renderSummary } from '../../src/report/summary.ts';
import { renderTable } from '../../src/report/table.ts';
import { cli, tmpdir, write } from '../helpers.ts';
import { pairedRecord } from '../helpers/paired-record.ts';
import { growthResultsJson, SEQS, sweptId } from './growth-results.ts';
import { tinyResultsJson } from './tiny-results.ts';

const swept = () => fromJson(growthResultsJson());

describe('the growth families of a swept results file', () => {
  const [family, ...others] = growthFamilies(swept());
  const tool = (id: string) => family.tools.find((s) => s.tool === id)!;

  it('makes one family of the subjects that differ only in seq, with its values ascending', () => {
    expect(others).toEqual([]);
    expect([family.group, family.contract, family.subject, family.key, family.fixed]).toEqual([
      'A',
      'single_module_output',
      'tiny',
      'seq',
      null,
    ]);
    expect(family.values).toEqual(SEQS);
    expect(family.subjects).toEqual(SEQS.map((s) => sweptId(s)));
    expect(family.tools.map((s) => s.tool)).toEqual(['raw', 'hooks', 'nnsight']);
  });

  it('gives each tool its median and x raw at every value', () => {
    const hooks = tool('hooks').cells;
    expect(hooks.map((c) => c!.median_ms)).toEqual(SEQS.map((s) => 0.01 * s + 0.5));
    expect(hooks[0]!.x_raw!.ratio).toBeCloseTo((0.16 + 0.5) / 0.16, 12);
    expect(hooks[0]!.x_raw!.paired).toBe(false);
    expect(tool('raw').cells[0]!.x_raw).toBeNull();
  });

  it('fits the forward growing like seq, a constant overhead for hooks, and one that grows like the forward for nnsight', () => {
    expect(family.forward!.exponent).toBeCloseTo(1, 9);
    expect(tool('raw').verdict).toBeNull();
    expect(tool('hooks').overhead!.exponent).toBeCloseTo(0, 2);
    expect(tool('hooks').verdict).toBe('constant');
    expect(tool('nnsight').overhead!.exponent).toBeCloseTo(1, 2);
    expect(tool('nnsight').time!.exponent).toBeCloseTo(1, 9);
    expect(tool('nnsight').verdict).toBe('like the forward');
  });

  it('makes a family per value of the other keys, naming them', () => {
    const raw = { ...growthResultsJson(SEQS, '@batch=1'), ...pickSubjects(growthResultsJson(SEQS, '@batch=4')) };
    const families = growthFamilies(fromJson(raw));
    const overSeq = families.filter((f) => f.key === 'seq').map((f) => f.fixed);
    const overBatch = families.filter((f) => f.key === 'batch').map((f) => [f.fixed, f.values]);
    expect(overSeq).toEqual(['batch=1', 'batch=4']);
    expect(overBatch).toEqual(SEQS.map((s) => [`seq=${s}`, [1, 4]]));
  });

  it('gives the slope but no interval, and no verdict, over two values', () => {
    const [f] = growthFamilies(fromJson(growthResultsJson([16, 64])));
    const hooks = f.tools.find((s) => s.tool === 'hooks')!;
    expect(hooks.overhead!.ci95).toBeNull();
    expect(hooks.verdict).toBe('cannot tell');
  });

  it('fits the times but judges no overhead where the family has no measured forward', () => {
    const raw = growthResultsJson() as Record<string, { groups?: Record<string, unknown> }>;
    for (const s of Object.values(raw))
      for (const id of Object.keys(s.groups ?? {})) if (id.includes('/raw/')) delete s.groups![id];
    const [f] = growthFamilies(fromJson(raw));
    expect(f.forward).toBeNull();
    expect(f.tools.map((s) => [s.tool, s.overhead, s.verdict])).toEqual([
      ['hooks', null, null],
      ['nnsight', null, null],
    ]);
    expect(f.tools[1].time!.exponent).toBeCloseTo(1, 9);
    const text = renderTable(reportInput(fromJson(raw), null), false, 200);
    expect(text).toContain('    nnsight  t ~ seq^1.00 (0.99 to 1.01); peak RSS 321.0 -> 336.0 MiB\n');
  });

  it('reads the id convention, one or several pairs', () => {
    expect(sweepPairs('gpt2@seq=256')).toEqual({ name: 'gpt2', pairs: [['seq', '256']] });
    expect(sweepPairs('gpt2@k1=v1@k2=v2')).toEqual({
      name: 'gpt2',
      pairs: [
        ['k1', 'v1'],
        ['k2', 'v2'],
      ],
    });
    expect(sweepPairs('resnet18')).toEqual({ name: 'resnet18', pairs: [] });
  });
});

describe('growth in the reports', () => {
  it('prints a few lines per family in the terminal report', () => {
    const text = renderTable(reportInput(swept(), null), false, 200);
    expect(text).toContain('Growth over swept subjects:');
    expect(text).toContain('tiny over seq (16-256), A / single_module_output');
    // Each line ends with the tool's peak memory at the first and the last value.
    expect(text).toContain('    raw      t ~ seq^1.00 (0.99 to 1.01); peak RSS 301.0 -> 316.0 MiB\n');
    // hooks' own time is no power law (a constant over a growing forward): its interval is wide.
    expect(text).toMatch(
      /hooks {4}t ~ seq\^0\.55 \(0\.4\d to 0\.6\d\); overhead ~ seq\^0\.00 \(-0\.0\d to 0\.0\d\): constant; peak RSS 301\.0 -> 316\.0 MiB\n/,
    );
    expect(text).toMatch(
      /nnsight {2}t ~ seq\^1\.00 .*; overhead ~ seq\^1\.00 \(\S+ to \S+\): grows like the forward; peak RSS 321\.0 -> 336\.0 MiB\n/,
    );
  });

  it("shows a paired cell's published x raw with its interval at its value, and takes its overhead from its own processes", () => {
    const raw = growthResultsJson() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path
    const hooks = raw[sweptId(64)].groups[`A/single_module_output/hooks/${sweptId(64)}`];
    hooks.paired = pairedRecord(hooks.samples_ms[0], { ratio: 1.78, ci95: [1.7, 1.86], published: [1.65, 1.9] });
    const results = fromJson(raw);
    // The overhead at seq=64 is the paired process's own: its time less the forward timed beside it.
    const overhead = growthFamilies(results)[0].tools.find((s) => s.tool === 'hooks')!.overhead!;
    expect(overhead.observations).toBe(3 + 1 + 3);
    expect(overhead.exponent).toBeCloseTo(0, 1);
    const md = renderMarkdown(reportInput(results, null));
    expect(md).toMatch(
      /\| hooks \| 0\.66 ms, 4\.13x unpaired \| 1\.14 ms, 1\.78x \(1\.\d\d-1\.\d\d\) \| 3\.06 ms, 1\.20x unpaired \|/,
    );
  });

  it('fits no overhead for a tool whose x raw interval holds 1.00 at every value: there is none to measure', () => {
    const raw = growthResultsJson() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path
    for (const seq of SEQS) {
      const hooks = raw[sweptId(seq)].groups[`A/single_module_output/hooks/${sweptId(seq)}`];
      hooks.paired = pairedRecord(hooks.samples_ms[0], { ratio: 1, ci95: [0.97, 1.03], published: [0.96, 1.04] });
    }
    const hooks = growthFamilies(fromJson(raw))[0].tools.find((s) => s.tool === 'hooks')!;
    expect([hooks.overhead, hooks.verdict]).toEqual([null, 'none']);
    expect(hooks.time).not.toBeNull();
  });

  it("ends the run's summary with the same lines, and carries the families in its JSON", () => {
    const summary = buildSummary(reportInput(swept(), null), []);
    expect(summary.growth).toEqual(growthFamilies(swept()));
    const text = renderSummary(summary, 80);
    expect(text).toContain('  tiny over seq (16-256), A / single_module_output\n');
    expect(text).toMatch(
      /hooks {4}t ~ seq\^0\.55 .*; overhead ~ seq\^0\.00 .*:\n {8}constant; peak RSS 301\.0 -> 316\.0 MiB\n/,
    );
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('says there is no interval over two values', () => {
    const text = renderTable(reportInput(fromJson(growthResultsJson([16, 64])), null), false, 200);
    expect(text).toContain('overhead ~ seq^1.00 (2 values, no interval): cannot tell');
  });

  it('draws a table per family on the markdown page: tools by swept values with x raw, then exponents and verdict', () => {
    const md = renderMarkdown(reportInput(swept(), null));
    expect(md).toContain('## Growth');
    expect(md).toContain('### tiny over seq (16-256), A / single_module_output');
    expect(md).toContain(
      '| Tool | seq=16 | seq=64 | seq=256 | Time exponent (95% CI) | Overhead exponent (95% CI) | Overhead |',
    );
    expect(md).toContain(
      '| raw | 0.16 ms | 0.64 ms | 2.56 ms | seq^1.00 (0.99 to 1.01) |  |  | 301.0 / 304.0 / 316.0 |',
    );
    // The memory column names its figure: the memory processes' peak RSS on the CPU.
    expect(md).toContain('| Overhead | Peak RSS (MiB) |');
    expect(md).toMatch(
      /\| hooks \| 0\.66 ms, 4\.13x unpaired \| .* \| seq\^0\.00 \(-0\.0\d to 0\.0\d\) \| constant \|/,
    );
    expect(md).toMatch(/\| nnsight \| 0\.24 ms, 1\.50x unpaired \| .* \| grows like the forward \|/);
  });

  it('carries the fits in the JSON report', async () => {
    const dir = tmpdir();
    const file = write(dir, 'results.json', JSON.stringify(growthResultsJson()));
    const r = await cli(['report', file, '--format', 'json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.growth).toHaveLength(1);
    expect(json.growth[0].tools[1]).toMatchObject({
      tool: 'hooks',
      verdict: 'constant',
      overhead: { points: 3, observations: 9, why: null },
    });
    expect(json.growth[0].forward.ci95).toHaveLength(2);
  });
});

describe('growth from a file whose names carry markup and control characters', () => {
  const hostile = fromJson(JSON.parse(JSON.stringify(growthResultsJson()).replaceAll('tiny', 'ti|ny\\u001b[31m<b>')));

  it('escapes them on the page and in the terminal, as every other figure is', () => {
    const md = renderMarkdown(reportInput(hostile, null));
    expect(md).toContain('### ti\\|ny');
    expect(md.slice(md.indexOf('## Growth'))).not.toMatch(/<b>|\u001b/);
    const text = renderTable(reportInput(hostile, null), false, 200);
    expect(text).toContain('ti|ny\\u001b[31m<b> over seq');
    expect(text).not.toContain('\u001b');
  });
});

describe('a results file without sweeps', () => {
  const plain = fromJson(tinyResultsJson());

  it('has no growth families, and its JSON report is the results model itself', () => {
    expect(growthFamilies(plain)).toEqual([]);
    expect(withGrowth(plain)).toBe(plain);
  });

  it('shows no growth in the terminal or on the page', () => {
    expect(renderTable(reportInput(plain, null), false)).not.toContain('Growth');
    expect(renderMarkdown(reportInput(plain, null))).not.toContain('Growth');
    expect(buildSummary(reportInput(plain, null), []).growth).toEqual([]);
    expect(renderSummary(buildSummary(reportInput(plain, null), []), 100)).not.toContain('Growth');
  });
});

/** The subjects of a results JSON (its keys that hold groups), for merging two swept files into one. */
function pickSubjects(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(raw).filter(([, v]) => typeof v === 'object' && v !== null && 'groups' in v),
  );
}
