// Inputs beyond the classes the second probe named: byte-order marks, CRLF line ends, NUL bytes, one
// huge line, bidirectional controls in text, and a results file that lists a key twice.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromJson, loadResults } from '../../src/results/load.ts';
import { renderPlan } from '../../src/plan/render.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { parseJsonText } from '../../src/util/json-file.ts';
import { FIXTURES, tmpdir, write } from '../helpers.ts';
import { tinyResultsJson } from '../report/tiny-results.ts';

const TINY = fs.readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8');
let dir: string;
beforeAll(() => {
  dir = tmpdir('benchgrid-extra-');
});

describe('results files', () => {
  it('a byte-order mark before the JSON is not part of it', () => {
    const file = write(dir, 'bom.json', `\ufeff${JSON.stringify(tinyResultsJson())}`);
    expect(loadResults(file).cells.length).toBeGreaterThan(0);
  });

  it('CRLF line ends are whitespace', () => {
    const file = write(dir, 'crlf.json', JSON.stringify(tinyResultsJson(), null, 1).replace(/\n/g, '\r\n'));
    expect(loadResults(file).cells.length).toBeGreaterThan(0);
  });

  it('a cell listed twice is refused (JSON.parse kept the last in silence), naming the key and its line', () => {
    const text = JSON.stringify(tinyResultsJson(), null, 1);
    const id = '"A/single_module_output/raw/resnet18"';
    const twice = text.replace(
      `${id}: {`,
      `${id}: { "status": "error", "reason": "shown to the reader" },\n   ${id}: {`,
    );
    expect(() => parseJsonText(twice, 'dup.json', 'results file')).toThrow(
      /dup\.json: not a results file: the key "A\/single_module_output\/raw\/resnet18" appears twice in one object \(line \d+\); JSON\.parse would keep only the last/,
    );
    // The same key in two different objects is fine, and so is an escaped spelling of another key.
    expect(() =>
      parseJsonText('{"a": {"x": 1}, "b": {"x": 2}, "c": "{\\"x\\":1,\\"x\\":2}"}', 'ok.json', 'results file'),
    ).not.toThrow();
    expect(() => parseJsonText('{"\\u0061": 1, "a": 2}', 'esc.json', 'results file')).toThrow(
      /the key "a" appears twice/,
    );
  });

  it('NUL and bidi controls in text load as text, and print as escapes', () => {
    const raw = tinyResultsJson() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data
    raw.resnet18.groups['A/replacement_edit/tv_fx/resnet18'].reason = 'a\u0000b \u202eexe.txt';
    const results = fromJson(raw);
    expect(results.cells.find((c) => c.id === 'A/replacement_edit/tv_fx/resnet18')!.reason).toBe(
      'a\u0000b \u202eexe.txt',
    );
  });
});

describe('specs', () => {
  it.each([
    ['a byte-order mark', `\ufeff${TINY}`],
    ['CRLF line ends', TINY.replace(/\n/g, '\r\n')],
    ['a NUL byte in a subject label', TINY.replace('label: ResNet-18', 'label: "Res\\0Net"')],
    ['a bidi control in a subject label', TINY.replace('label: ResNet-18', 'label: "abc\u202edef"')],
    ['a 1.9 MB title on one line', TINY.replace('title: Tiny ResNet-18, CPU', `title: ${'x'.repeat(1_900_000)}`)],
  ])('%s: valid, and the plan prints it as one line of shown text', async (_, text) => {
    const loaded = await loadSpec(write(dir, `spec-${Math.random().toString(36).slice(2)}.yaml`, text));
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const plan = renderPlan(loaded.spec!, loaded.plan!, () => true, false);
    expect(plan).not.toMatch(/[\u0000\u202e\r]/);
    if (/Res\\0Net|abc/.test(text)) expect(plan).toMatch(/Res\\u0000Net|abc\\u202edef/);
  });
});
