// `benchgrid diff OLD NEW` as a user runs it: JSON is the model, terminal and markdown show its key lines.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers.ts';
import { diffPair } from './fixtures.ts';

const pair = (name: string) => [`test/fixtures/diff/${name}/old.yaml`, `test/fixtures/diff/${name}/new.yaml`];

describe('benchgrid diff OLD NEW', () => {
  it('--format json prints the report: the SpecDiff model of the pair, files as typed', async () => {
    const r = await cli(['diff', ...pair('subject-site-change'), '--format', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const model = await diffPair('subject-site-change');
    model.old!.file = pair('subject-site-change')[0];
    model.new!.file = pair('subject-site-change')[1];
    expect(report).toEqual({ format: 1, base: null, diffs: [model], invalid: [] });
  });

  it('the terminal shows the summary line and each change with the cells it invalidates', async () => {
    const r = await cli(['diff', ...pair('subject-site-change')], { env: { COLUMNS: '200' } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'test/fixtures/diff/subject-site-change/old.yaml -> test/fixtures/diff/subject-site-change/new.yaml (small)',
      '  7 cells, 6 planned: 5 to re-measure after 1 definition change.',
      '',
      'Definitions changed (1), 5 cells to re-measure',
      '  subject resnet18: sites.layer2 layer2 -> layer3',
      '    invalidates 5 cells:',
      '      A/single_module_output/raw/resnet18',
      '      A/single_module_output/hooks/resnet18',
      '      A/single_module_output/tv_fx/resnet18',
      '      A/replacement_edit/raw/resnet18',
      '      A/replacement_edit/hooks/resnet18',
    ]);
  });

  it('the terminal shows flips with both reasons, renames, and added and removed cells', async () => {
    const shown: Record<string, string[]> = {
      'flipped-reason': [
        '  7 cells, 5 planned (was 6): 1 flipped, 1 reason changed.',
        '  ~ A/replacement_edit/raw/resnet18: planned -> unsupported\n      now: an unedited forward pass says nothing about edits',
        '  ~ A/replacement_edit/tv_fx/resnet18\n      was: a feature extractor reads outputs\n      now: a feature extractor reads outputs; it cannot edit',
      ],
      rename: [
        '  7 cells, 6 planned: 3 renamed.',
        'Renamed (2)\n  contract raw_forward -> plain_forward\n  tool hooks -> forward_hooks',
      ],
      'added-tool': [
        '  7 cells (was 5), 6 planned (was 5): 2 added, 1 definition change.',
        '  + A/replacement_edit/tv_fx/resnet18  unsupported: a feature extractor reads outputs',
        '  tool tv_fx added',
      ],
      'removed-contract': ['  - A/replacement_edit/hooks/resnet18  planned'],
    };
    for (const [name, lines] of Object.entries(shown)) {
      const stdout = (await cli(['diff', ...pair(name)])).stdout;
      for (const line of lines) expect(stdout, name).toContain(line);
      if (name === 'rename') expect(stdout).not.toMatch(/added|removed/);
    }
  });

  it('--format markdown is a PR comment: a marker, the summary in bold, long lists folded', async () => {
    const r = await cli(['diff', ...pair('extends-change'), '--format', 'markdown']);
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md.startsWith('<!-- benchgrid-diff -->\n## benchgrid diff\n')).toBe(true);
    expect(md).toContain('### `test/fixtures/diff/extends-change/new.yaml` (small)');
    expect(md).toContain('**7 cells, 6 planned: 6 to re-measure after 1 definition change.**');
    expect(md).toContain(
      '- **subject resnet18**: `inputs.shape` `[1,3,32,32]` → `[1,3,64,64]`; invalidates 6 cells\n\n  <details><summary>cells to re-measure</summary>\n\n  - `A/single_module_output/raw/resnet18`',
    );
    const short = (await cli(['diff', ...pair('flipped-reason'), '--format', 'markdown'])).stdout;
    expect(short).toContain(
      '**Status flipped (1)**\n\n- `A/replacement_edit/raw/resnet18`: planned → unsupported (an unedited forward pass says nothing about edits)',
    );
    expect(short).not.toContain('<details>');
  });

  it('an invalid new version is reported with positions, exit 2, and nothing is diffed', async () => {
    const r = await cli(['diff', ...pair('invalid-new')]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toEqual([
      // One root cause, one error: the reference and the page entry it breaks are folded under it.
      "test/fixtures/diff/invalid-new/new.yaml:28:18 groups.A.tools[1]: unknown tool 'hoks'. Did you mean 'hooks'?",
      '  (+2 follow-on errors caused by this one, at lines 25, 47; they go away with it. --json lists them.)',
      'benchgrid: cannot diff: the new version test/fixtures/diff/invalid-new/new.yaml is not a valid spec (1 error).',
    ]);
    const json = JSON.parse((await cli(['diff', ...pair('invalid-new'), '--format', 'json'])).stdout);
    expect(json.diffs).toEqual([]);
    expect(
      json.invalid.map((i: any) => [
        i.side,
        i.file,
        i.diagnostics[0].line,
        i.diagnostics[0].col,
        i.diagnostics[0].code,
      ]),
    ).toEqual([['new', 'test/fixtures/diff/invalid-new/new.yaml', 28, 18, 'unknown-tool']]);
  });

  it('--exit-code exits 4 (a difference found) when anything changed and 0 when nothing did', async () => {
    expect((await cli(['diff', ...pair('protocol-change'), '--exit-code'])).code).toBe(4);
    expect((await cli(['diff', ...pair('protocol-change')])).code).toBe(0);
    const same = await cli(['diff', pair('protocol-change')[0], pair('protocol-change')[0], '--exit-code']);
    expect([same.code, same.stdout.split('\n')[1]]).toEqual([0, '  7 cells, 6 planned: no change.']);
  });

  it('refuses a wrong number of files, a missing file and an unknown format with exit 2', async () => {
    const one = await cli(['diff', pair('rename')[0]]);
    expect([one.code, one.stderr.trim()]).toEqual([
      2,
      'benchgrid: diff needs OLD.yaml NEW.yaml, or --base REV [SPEC...] (got 1 file).',
    ]);
    const missing = await cli(['diff', pair('rename')[0], path.join('test/fixtures/diff/nope.yaml')]);
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([
      2,
      'test/fixtures/diff/nope.yaml:1:1: no such file. Check the path; specs live in specs/*.yaml.',
    ]);
    const format = await cli(['diff', ...pair('rename'), '--format', 'html']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/Allowed choices are table, markdown, json, terminal/);
  });
});
