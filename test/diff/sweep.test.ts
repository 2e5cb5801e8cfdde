// `benchgrid diff OLD NEW` of a sweep as a user runs it: a value added to a subject's sweep is one new
// subject, its cells added and every other point's numbers still valid.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT, tmpdir, write } from '../helpers.ts';

let oldFile: string;
let newFile: string;
beforeAll(() => {
  const dir = tmpdir();
  const example = fs.readFileSync(path.join(ROOT, 'specs/examples/sweep_cpu.yaml'), 'utf8');
  oldFile = write(
    dir,
    'old.yaml',
    example.replace('sweep: { inputs.shape.1: [16, 64, 256] }', 'sweep: { inputs.shape.1: [16, 64] }'),
  );
  newFile = write(dir, 'new.yaml', example);
});

describe('benchgrid diff of a sweep', () => {
  it("that gains a value shows only the new point's cells as added, and invalidates nothing", async () => {
    const r = await cli(['diff', oldFile, newFile, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const [d] = JSON.parse(r.stdout).diffs;
    expect(d.cells.added.map((c: { id: string }) => c.id)).toEqual([
      'A/single_module_output/raw/gpt2@seq=256',
      'A/single_module_output/hooks/gpt2@seq=256',
      'A/single_module_output/nnsight/gpt2@seq=256',
      'A/replacement_edit/raw/gpt2@seq=256',
      'A/replacement_edit/hooks/gpt2@seq=256',
      'A/replacement_edit/nnsight/gpt2@seq=256',
    ]);
    expect(d.summary).toMatchObject({ added: 6, removed: 0, renamed: 0, flipped: 0, invalidated: 0 });
  });

  it('in the terminal names the new point as an added subject', async () => {
    const r = await cli(['diff', oldFile, newFile], { env: { COLUMNS: '200' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/18 cells \(was 12\), 18 planned \(was 12\): 6 added/);
    expect(r.stdout).toMatch(/subject gpt2@seq=256 added/);
    expect(r.stdout).not.toMatch(/gpt2@seq=(16|64)\b/);
  });
});
