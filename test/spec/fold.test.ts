// One typo, one error: the follow-ons an unknown name causes are folded under it, in file order.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT, tmpdir, write } from '../helpers.ts';
import { foldFollowOns } from '../../src/spec/fold.ts';
import type { Diagnostic } from '../../src/spec/diagnostics.ts';

let typo: string;

beforeAll(() => {
  // Issue 16's typo: `single_modul_output` in group A's contracts of a copy of the seed's spec.
  const text = fs.readFileSync(path.join(ROOT, 'specs/resnet18_gpu.yaml'), 'utf8');
  const changed = text.replace(
    /(groups:\n  A:\n(?:    .*\n)*?    contracts: \[)single_module_output/,
    '$1single_modul_output',
  );
  expect(changed).not.toBe(text);
  typo = write(tmpdir(), 'typo.yaml', changed);
});

describe('validate with one typo', () => {
  it('prints one error, the root cause, with its follow-ons folded under it', async () => {
    const r = await cli(['validate', typo]);
    expect(r.code).toBe(2);
    const errors = r.stderr.split('\n').filter((l) => /^\S+:\d+:\d+ /.test(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/unknown contract 'single_modul_output'\. Did you mean 'single_module_output'\?$/);
    expect(r.stderr).toMatch(/\n {2}\(\+\d+ follow-on errors caused by this one, at lines \d+/);
    expect(r.stderr).toMatch(/invalid: 1 error \(\+\d+ follow-ons folded under it\)/);
    expect(r.stderr).not.toContain("Did you mean 'single_modul_output'");
  });

  it('lists the follow-ons under the root in --json, none of them hinting at the misspelt name', async () => {
    const r = await cli(['validate', typo, '--json']);
    expect(r.code).toBe(2);
    const [spec] = JSON.parse(r.stdout).specs;
    expect(spec.diagnostics).toHaveLength(1);
    const follow: Diagnostic[] = spec.diagnostics[0].follow_ons;
    expect(follow.length).toBeGreaterThan(5);
    for (const f of follow) expect(f.hint ?? '').not.toContain('single_modul_output');
    const lines = follow.map((f) => f.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });

  it('emits a GitHub annotation per error when GITHUB_ACTIONS=true, and none otherwise', async () => {
    const r = await cli(['validate', typo], { env: { GITHUB_ACTIONS: 'true' } });
    const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(
      /^::error file=[^,]*typo\.yaml,line=\d+,col=17,title=benchgrid unknown-contract::groups\.A\.contracts\[0\]: unknown contract 'single_modul_output'/,
    );
    expect((await cli(['validate', typo])).stdout).not.toContain('::error');
  });
});

describe('foldFollowOns', () => {
  const d = (line: number, code: string, message: string, hint?: string): Diagnostic => ({
    severity: 'error',
    file: 'f.yaml',
    line,
    col: 1,
    path: '',
    code,
    message,
    hint,
  });

  it('keeps diagnostics that do not name the unknown name, and matches whole names only', () => {
    const out = foldFollowOns([
      d(1, 'unknown-tool', "unknown tool 'hoks'.", "Did you mean 'hooks'?"),
      d(2, 'other', 'cell A/x/hoks/m is neither implemented nor given a reason.'),
      d(3, 'other', "tool 'hooks2' is odd."),
      d(4, 'unknown-reason-target', "this reason names tool 'hooks', which is not in group A.", "Did you mean 'hoks'?"),
    ]);
    expect(out.map((x) => x.line)).toEqual([1, 3]);
    expect(out[0].follow_ons?.map((x) => [x.line, x.hint])).toEqual([
      [2, undefined],
      [4, undefined],
    ]);
  });

  it('returns the list unchanged when there is no unknown name', () => {
    const list = [d(1, 'two-defaults', 'two defaults.')];
    expect(foldFollowOns(list)).toBe(list);
  });
});
