// "How it was measured" says only what was measured: a subject whose every cell is reasoned out ran nothing.
import { describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { renderHtml } from '../../src/report/html.ts';
import { howMeasured, protocolText } from '../../src/report/measured.ts';
import { tinyResultsJson } from './tiny-results.ts';

describe('how it was measured', () => {
  it('describes a measured subject by its protocol, and one whose every cell is unsupported as not measured', () => {
    const json = tinyResultsJson();
    const meta = (json.resnet18 as { meta: Record<string, unknown> }).meta;
    // As decoders_cpu.yaml's 1B Llama: the subject has metadata (the spec declares it) but every cell is reasoned out.
    json.llama_1b = {
      meta: { ...meta, aa_noise: null },
      not_measured: [],
      groups: {
        'A/single_module_output/raw/llama_1b': {
          status: 'unsupported',
          statuses: ['unsupported'],
          reason: 'too large for this CPU',
        },
        'A/single_module_output/hooks/llama_1b': {
          status: 'unsupported',
          statuses: ['unsupported'],
          reason: 'too large for this CPU',
        },
      },
    };
    const results = fromJson(json, 'results.json');
    const lines = howMeasured(results);
    expect(lines).toContain('**llama_1b.** Not measured: all 2 of its cells are unsupported (reasons in the table).');
    const resnet = lines.find((l) => l.startsWith('**resnet18.**'));
    expect(resnet).toContain(
      'Each cell ran in 2 fresh Python processes, each making 1 warm-up call, then up to 3 timed calls (at least 2)',
    );
    // The HTML report says the same under the subject's heading, with no protocol table for it.
    const html = renderHtml({ results, spec: null, libraries: {} });
    const llama = html.slice(html.indexOf('<h3>llama_1b</h3>'));
    expect(llama.slice(0, 200)).toContain(
      '<p>Not measured: all 2 of its cells are unsupported (reasons in the table).</p>',
    );
    expect(llama.slice(0, llama.indexOf('<h3>', 5) === -1 ? undefined : llama.indexOf('<h3>', 5))).not.toContain(
      'Protocol',
    );
  });

  it('counts warm-up calls in the plural from two on', () => {
    expect(protocolText({ warmups: 2 })).toBe(
      'Each process made 2 warm-up calls. A value is the median of the per-process medians, with the smallest and largest per-process median in brackets.',
    );
    expect(protocolText({ warmups: 0, processes: 1 })).toContain('1 fresh Python process, each making 0 warm-up calls');
  });

  it('says the wall-clock stop of sampling where the spec set max_seconds_per_process, and nothing of it where null', () => {
    expect(protocolText({ warmups: 1, samples: 10, max_seconds_per_process: 30 })).toContain(
      'Each process made 1 warm-up call, then up to 10 timed calls, for at most 30 s of wall-clock time from its first timed call.',
    );
    expect(protocolText({ warmups: 1, samples: 10, max_seconds_per_process: null })).not.toContain('wall-clock');
  });
});
