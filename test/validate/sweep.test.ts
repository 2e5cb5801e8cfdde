// `benchgrid validate` of a sweep as a user runs it: every wrong key or value refused at its own line and
// column, with what to do, exit 2; a point over the harness's input limit refused at the value that makes it.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT, tmpdir, write } from '../helpers.ts';
import { sweepSpec } from '../spec/sweep-spec.ts';

let dir: string;
beforeAll(() => {
  dir = tmpdir();
});

/** The line `sweep:` is written on in sweepSpec (1-based), and the column its mapping's text starts at. */
const LINE = 11;
const TEXT = '    sweep: ';

/** validate of a spec whose sweep is `sweep`; its exit code and stderr. */
async function validate(name: string, sweep: string) {
  const file = write(dir, `${name}.yaml`, sweepSpec(`${TEXT}${sweep}`));
  const r = await cli(['validate', file]);
  return { code: r.code, stderr: r.stderr, file };
}

/** file:line:col of `needle` on the sweep's line (its first occurrence after `from`). */
function where(file: string, sweep: string, needle: string, from = 0): string {
  return `${file}:${LINE}:${TEXT.length + sweep.indexOf(needle, from) + 1}`;
}

describe('validate refuses a sweep', () => {
  it.each([
    [
      'a path the subject lacks',
      '{ model.config.n_layers: [2, 6] }',
      'model.config.n_layers',
      0,
      /the subject has no model\.config\.n_layers to sweep\. Write the value in the subject first/,
    ],
    [
      'a path to a list',
      '{ inputs.shape: [4] }',
      'inputs.shape',
      0,
      /inputs\.shape is a list; a sweep replaces one value\. Sweep one of its entries, e\.g\. inputs\.shape\.0/,
    ],
    ['a path outside model and inputs', '{ label: [a, b] }', 'label', 0, /'label' is not a path under model or inputs/],
    [
      'a value that is not a list',
      '{ inputs.shape.1: 16 }',
      '16',
      0,
      /must be array \(got number 16\)\. A sweep maps a path of the subject to a list of its values/,
    ],
    ['an empty list', '{ inputs.shape.1: [] }', '[]', 0, /must not be empty\. A sweep maps a path/],
    [
      'a value listed twice, at the second',
      '{ inputs.shape.1: [16, 64, 16] }',
      '16',
      22,
      /16 is listed twice\. Remove one\./,
    ],
    [
      'a value of another type',
      '{ inputs.shape.1: [16, long] }',
      'long',
      0,
      /"long" is not an integer, as inputs\.shape\.1 \(16\) is\. Sweep inputs\.shape\.1 over integer values\./,
    ],
    ['a size below 1', '{ inputs.shape.1: [16, 0] }', '0', 0, /0 is not a size: a shape's entries are at least 1/],
  ])('with %s, at its position', async (name, sweep, needle, from, message) => {
    const r = await validate(name.replace(/\W+/g, '-'), sweep);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n')[0]).toContain(`${path.basename(where(r.file, sweep, needle, from))} `);
  });

  it("whose point has inputs over the harness's limit, at that point's value", async () => {
    const sweep = '{ inputs.shape.0: [1, 1000000000] }';
    const r = await validate('over-limit', sweep);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /point gpt2@batch=1000000000: shape \[1000000000, 16\] is 16,000,000,000 elements; the harness generates at most 2,147,483,648 \(2\*\*31\) per input\. Sweep smaller values\./,
    );
    expect(r.stderr.split('\n')[0]).toContain(`${path.basename(where(r.file, sweep, '1000000000'))} `);
  });

  it('of more points than a subject may have, at the sweep', async () => {
    const many = (n: number) => `[${Array.from({ length: n }, (_, i) => i + 1).join(', ')}]`;
    const r = await validate('too-many', `{ inputs.shape.1: ${many(40)}, model.config.n_layer: ${many(30)} }`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the sweep makes 1,200 points; a subject may have at most 1,000\. Sweep fewer values/);
  });

  it('names a point no sweep makes, in a reason, as an unknown subject with the nearest point', async () => {
    const reason =
      '    unsupported:\n      - tools: [hooks]\n        subjects: [gpt2@seq=65]\n        reason: too long\n        policy: true\n';
    const r = await cli([
      'validate',
      write(dir, 'unknown-point.yaml', sweepSpec(`${TEXT}{ inputs.shape.1: [16, 64] }`, { group: reason })),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /unknown subject 'gpt2@seq=65': this reason names it, but the spec does not declare it\. Did you mean 'gpt2@seq=64'\?/,
    );
  });

  it('accepts the example spec, three points of a GPT-2-shaped decoder', async () => {
    const r = await cli(['validate', path.join(ROOT, 'specs/examples/sweep_cpu.yaml')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/valid: 18 cells \(18 planned/);
  });
});
