// A measured tool cell whose contract has no raw cell (the spec reasons raw out, as vision_cpu.yaml does for
// integrated gradients) has no ratio to raw: its column says so and the note under the table says why.
import { describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { loadSpecForReport } from '../../src/report/spec.ts';
import { TINY_SPEC, tinyResultsJson } from './tiny-results.ts';

describe('a measured cell without a baseline', () => {
  it('reads "no baseline" in the x raw column, with the reason under the table', async () => {
    const json = tinyResultsJson();
    const groups = (json.resnet18 as { groups: Record<string, Record<string, unknown>> }).groups;
    const why = 'raw does not implement single_module_output on torchvision subjects';
    groups['A/single_module_output/raw/resnet18'] = {
      status: 'unsupported',
      statuses: ['unsupported'],
      reason: 'reasoned out',
    };
    groups['A/single_module_output/tv_fx/resnet18'] = {
      ...groups['A/single_module_output/nnsight/resnet18'],
      exact: 'bit',
      max_abs_diff: 0,
      unpaired: why,
    };
    const md = renderMarkdown(reportInput(fromJson(json, 'results.json'), await loadSpecForReport(TINY_SPEC)));
    const lines = md.split('\n');
    expect(lines.find((l) => l.includes('| torchvision fx |'))).toMatch(/\| no baseline \|  \| bit-exact \|$/);
    // nnsight's cell records no reason: its column stays empty rather than guessing one.
    expect(lines.find((l) => l.includes('| nnsight 0.8.1 |'))).toMatch(/\|  \| mismatch \(max abs diff 0\.5\) \|$/);
    expect(lines).toContain(`No ratio to raw: ${why} (1).`);
  });
});
