// validate reports schema and semantic errors in one pass, and one root cause gives one error, also
// across the specs that extend a broken one (it used to hide the semantic errors until the schema's were
// fixed, and to print one error per page row for a removed contract, again for every extending spec).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/validate/load.ts';
import { cli, FIXTURES, ROOT, tmpdir, write } from '../helpers.ts';

const tiny = fs.readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8').replace(/^# yaml-language-server.*\n/, '');
const edit = (...reps: [string, string][]) =>
  reps.reduce((t, [a, b]) => {
    expect(t.includes(a), a).toBe(true);
    return t.replace(a, b);
  }, tiny);

describe('one pass', () => {
  it('reports a schema error and an unrelated semantic error together', async () => {
    const file = write(
      tmpdir(),
      'spec.yaml',
      edit(
        ['hooks: { label: forward hooks }', 'hooks: { label: 5 }'],
        ['tools: [raw, hooks, tv_fx]', 'tools: [raw, hooks, tv_fx, torchlens]'],
      ),
    );
    const r = await cli(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tools\.hooks\.label: must be string \(got number 5\)\./);
    expect(r.stderr).toMatch(
      /groups\.A\.tools\[3\]: unknown tool 'torchlens'\. Runner 'torch' has an adapter 'torchlens': declare it under tools:/,
    );
    expect(r.stderr).toMatch(/invalid: 2 errors/);
  });

  it('folds what a refused value takes with it under the schema error', async () => {
    const loaded = await loadSpec(write(tmpdir(), 'spec.yaml', edit(['tv_fx: { label: torchvision fx }', 'tv_fx: 7'])));
    expect(loaded.diagnostics.map((d) => d.message)).toEqual(['must be object (got number 7).']);
    expect(loaded.diagnostics[0].follow_ons?.map((d) => d.message)).toEqual(["unknown tool 'tv_fx'."]);
  });

  it('gives only the schema error where the semantic check would mean nothing (no groups)', async () => {
    const loaded = await loadSpec(write(tmpdir(), 'spec.yaml', edit(['groups:\n', 'groups: 5\nunused:\n'])));
    expect(loaded.diagnostics.map((d) => d.code).sort()).toEqual(['unknown-key', 'wrong-type']);
  });
});

describe('a removed contract', () => {
  it('is one error with its follow-ons folded, printed once for the spec and the specs extending it', async () => {
    const dir = tmpdir();
    for (const f of ['resnet18_gpu.yaml', 'resnet18_cpu.yaml'])
      fs.copyFileSync(path.join(ROOT, 'specs', f), path.join(dir, f));
    const gpu = path.join(dir, 'resnet18_gpu.yaml');
    const text = fs.readFileSync(gpu, 'utf8');
    const cut = text
      .replace('  replacement_edit:\n    label: one module replaced by zeros\n    site: layer2\n', '')
      .replace('matched_retained, replacement_edit, repeated_steering', 'matched_retained, repeated_steering');
    expect(cut).not.toBe(text);
    fs.writeFileSync(gpu, cut);
    const r = await cli(['validate', gpu, path.join(dir, 'resnet18_cpu.yaml')]);
    expect(r.code).toBe(2);
    const errors = r.stderr.split('\n').filter((l) => /^\S+:\d+:\d+ /.test(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /unknown contract 'replacement_edit': this reason names it, but the spec does not declare it/,
    );
    expect(r.stderr).toMatch(/\(\+\d+ follow-on errors caused by this one, at lines [\d, ]+; they go away with it/);
    expect(r.stderr).toMatch(
      /resnet18_cpu\.yaml: 1 diagnostic\(s\) the same as printed above for .*resnet18_gpu\.yaml \(a file it extends\), not printed again\./,
    );
  });
});
