// The spec schema and semantic rules against small valid and invalid fixtures, with positions.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/validate/load.ts';
import { formatDiagnostic } from '../../src/spec/diagnostics.ts';
import { FIXTURES, ROOT, tmpdir, write } from '../helpers.ts';

const tiny = fs.readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8');

/** Writes tiny.yaml with one textual replacement into a temp dir and loads it. */
async function loadVariant(from: string, to: string, ...more: [string, string][]) {
  let text = tiny;
  for (const [a, b] of [[from, to], ...more]) {
    expect(text.includes(a), `fixture contains ${a}`).toBe(true);
    text = text.replace(a, b);
  }
  const dir = tmpdir();
  const file = write(dir, 'variant.yaml', text);
  const loaded = await loadSpec(file);
  return { loaded, lines: loaded.diagnostics.map((d) => formatDiagnostic(d, dir)) };
}

/** tiny.yaml's one unsupported reason, the whole list: tv_fx, a feature extractor, neither edits nor steers. */
const TV_FX_REASON =
  '    unsupported:\n      - tools: [tv_fx]\n        contracts: [replacement_edit, repeated_steering]\n        reason: a feature extractor reads outputs\n';

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('spec schema', () => {
  it('accepts the tiny fixture and every spec in specs/', async () => {
    for (const file of [
      path.join(FIXTURES, 'specs/tiny.yaml'),
      ...fs
        .readdirSync(path.join(ROOT, 'specs'))
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => path.join(ROOT, 'specs', f)),
    ]) {
      const loaded = await loadSpec(file);
      expect(
        loaded.diagnostics.filter((d) => d.severity === 'error').map((d) => formatDiagnostic(d)),
        file,
      ).toEqual([]);
      expect(loaded.spec?.name).toBeTruthy();
    }
  });

  it('every spec file starts with a yaml-language-server schema line', () => {
    for (const f of fs.readdirSync(path.join(ROOT, 'specs')).filter((f) => f.endsWith('.yaml'))) {
      const first = fs.readFileSync(path.join(ROOT, 'specs', f), 'utf8').split('\n')[0];
      expect(first).toBe('# yaml-language-server: $schema=../schemas/spec.schema.json');
    }
  });

  it('flags an unknown key at the key, with a did-you-mean', async () => {
    const { lines } = await loadVariant('protocol: { warmups: 1', 'protocol: { warmpus: 1');
    expect(lines).toEqual([
      `variant.yaml:${lineOf(tiny, 'protocol: {')}:13 protocol.warmpus: unknown key 'warmpus'. Did you mean 'warmups'?`,
    ]);
  });

  it('flags a wrong type with what it got', async () => {
    const { lines } = await loadVariant('processes: 2', 'processes: two');
    expect(lines.join('\n')).toMatch(/protocol\.processes: must be integer \(got 'two'\)\./);
  });

  it('flags a bad device with the allowed values', async () => {
    const { lines } = await loadVariant('device: cpu', 'device: gpu');
    expect(lines).toEqual([
      `variant.yaml:${lineOf(tiny, 'device: cpu')}:9 device: must be one of 'cpu', 'cuda' (got 'gpu'). Did you mean 'cpu'?`,
    ]);
  });

  it('flags a missing required key at its parent', async () => {
    const { lines } = await loadVariant('title: Tiny ResNet-18, CPU\n', '');
    // reported where the document's mapping starts, after the leading comments
    expect(lines).toEqual([`variant.yaml:${lineOf(tiny, 'benchgrid: 1')}:1: missing required key 'title'.`]);
  });

  it('says a group is either a product or a list of cells', async () => {
    const { lines } = await loadVariant(
      '    cells:\n      raw_forward: [reference]',
      '    tools: [reference]\n    cells:\n      raw_forward: [reference]',
    );
    expect(lines.join('\n')).toMatch(/groups\.B: a group declares either `contracts` and `tools`/);
  });
});

describe('semantic rules', () => {
  it('an unknown tool in a group, with a did-you-mean', async () => {
    const { lines } = await loadVariant('tools: [raw, hooks, tv_fx]', 'tools: [raw, hoks, tv_fx]');
    expect(lines[0].split('\n')[0]).toBe(
      `variant.yaml:${lineOf(tiny, 'tools: [raw, hooks, tv_fx]')}:18 groups.A.tools[1]: unknown tool 'hoks'. Did you mean 'hooks'?`,
    );
  });

  it('an unknown subject and an unknown contract', async () => {
    const a = await loadVariant('subjects: [resnet18]\n    contracts', 'subjects: [resnet19]\n    contracts');
    expect(a.lines.join('\n')).toMatch(
      /groups\.A\.subjects\[0\]: unknown subject 'resnet19'\. Did you mean 'resnet18'\?/,
    );
    const b = await loadVariant('      raw_forward: [reference]', '      raw_forwad: [reference]');
    expect(b.lines.join('\n')).toMatch(
      /groups\.B\.cells\.raw_forwad: unknown contract 'raw_forwad'\. Did you mean 'raw_forward'\?/,
    );
  });

  it('an unknown environment and an unknown adapter', async () => {
    const a = await loadVariant('raw: { label: plain forward }', 'raw: { label: plain forward, environment: mian }', [
      'subjects:\n',
      'environments:\n  main: { requirements: [torch] }\nsubjects:\n',
    ]);
    expect(a.lines.join('\n')).toMatch(/tools\.raw\.environment: unknown environment 'mian'\. Did you mean 'main'\?/);
    const b = await loadVariant('raw: { label: plain forward }', 'raw: { label: plain forward, adapter: rwa }');
    expect(b.lines.join('\n')).toMatch(
      /tools\.raw\.adapter: runner 'torch' has no adapter 'rwa'\. Did you mean 'raw'\?/,
    );
  });

  it('an unknown site', async () => {
    const { lines } = await loadVariant(
      "single_module_output: { label: one module's output, site: layer2 }",
      "single_module_output: { label: one module's output, site: layer3 }",
    );
    expect(lines.join('\n')).toMatch(
      /contracts\.single_module_output\.site: contract 'single_module_output' reads site 'layer3', which subject 'resnet18' does not declare\. Did you mean 'layer2'\?/,
    );
  });

  it('a reason that names no existing cell', async () => {
    const { lines } = await loadVariant(
      '        contracts: [replacement_edit, repeated_steering]\n        reason: a feature extractor reads outputs',
      '        contracts: [replacement_edit, repeated_steering]\n        reason: a feature extractor reads outputs\n      - tools: [raw]\n        subjects: [resnet18]\n        contracts: [raw_forward]\n        reason: nothing',
    );
    expect(lines.join('\n')).toMatch(
      /groups\.A\.unsupported\[1\]\.contracts\[0\]: this reason names contract 'raw_forward', which is not in group A/,
    );
  });

  it('a cell that is neither implemented nor reasoned', async () => {
    const { lines, loaded } = await loadVariant(TV_FX_REASON, '');
    expect(loaded.spec).toBeUndefined();
    expect(lines.join('\n')).toMatch(
      /cell A\/replacement_edit\/tv_fx\/resnet18 is neither implemented \(adapter 'tv_fx' of runner 'torch' has no 'replacement_edit'\) nor given a reason\. Add it to the group's 'unsupported' list/,
    );
  });

  it('a stale reason is a warning, not an error', async () => {
    const { lines, loaded } = await loadVariant(
      'tools: [tv_fx]\n        contracts: [replacement_edit, repeated_steering]',
      'tools: [tv_fx, hooks]\n        contracts: [replacement_edit, repeated_steering]',
    );
    expect(loaded.spec).toBeDefined();
    expect(lines.join('\n')).toMatch(
      /warning: stale reason: the adapter implements A\/replacement_edit\/hooks\/resnet18, A\/repeated_steering\/hooks\/resnet18/,
    );
  });

  it('an empty reason', async () => {
    const { lines } = await loadVariant('reason: a feature extractor reads outputs', 'reason: "  "');
    expect(lines.join('\n')).toMatch(/unsupported\[0\]\.reason: the reason is empty\./);
  });

  it('a page row naming an unknown cell', async () => {
    const { lines } = await loadVariant(
      '- { tool: hooks, label: forward hook }',
      '- { tool: hoks, label: forward hook }',
    );
    expect(lines.join('\n')).toMatch(
      /page\.sections\[0\]\.rows\[0\]\.entries\[1\]: page entry names cell 'A\/single_module_output\/hoks\/resnet18', which the plan does not have\. Did you mean 'A\/single_module_output\/hooks\/resnet18'\?/,
    );
  });

  it('collects every problem in one pass', async () => {
    const { lines } = await loadVariant('tools: [raw, hooks, tv_fx]', 'tools: [rwa, hoks, tv_fx]');
    expect(lines.filter((l) => /unknown tool/.test(l))).toHaveLength(2);
  });
});
