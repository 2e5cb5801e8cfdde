// Loading a spec that must be valid: the spec layer throws a UserError carrying every diagnostic, and
// only the CLI's error boundary prints it (no lower layer prints or exits).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.ts';
import { loadDeclaredSpec } from '../../src/spec/load.ts';
import { loadValidSpec } from '../../src/validate/valid.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';

const TINY = fs.readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8');

/** tiny.yaml with its device replaced by something the schema refuses (line 6). */
function invalidSpec(): string {
  return write(tmpdir(), 'bad.yaml', TINY.replace('device: cpu', 'device: tpu'));
}

async function thrown(p: Promise<unknown>): Promise<UserError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  return error as UserError;
}

describe('loading a spec that must be valid', () => {
  it('returns the spec, its plan and manifests when it is valid', async () => {
    const v = await loadValidSpec(path.join(FIXTURES, 'specs/tiny.yaml'));
    expect(v.spec.name).toBe('tiny');
    expect(v.plan.cells.length).toBeGreaterThan(0);
    expect(Object.keys(v.manifests)).toContain('torch');
  });

  it('throws a usage error whose details are the positioned diagnostics', async () => {
    const file = invalidSpec();
    for (const error of [await thrown(loadValidSpec(file)), await thrown(loadDeclaredSpec(file))]) {
      expect(error.exitCode).toBe(2);
      expect(error.message).toBe(
        `${file} is not a valid spec (1 error); run \`benchgrid validate ${file}\` after fixing.`,
      );
      expect(error.details).toHaveLength(1);
      expect(error.details[0]).toMatch(/bad\.yaml:6:\d+ device: must be one of/);
    }
  });

  it('reaches the user through the CLI boundary: diagnostics first, then what to do, exit 2', async () => {
    const file = invalidSpec();
    const r = await cli(['plan', file]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/bad\.yaml:6:\d+ device: /);
    expect(lines.at(-1)).toBe(
      `benchgrid: ${file} is not a valid spec (1 error); run \`benchgrid validate ${file}\` after fixing.`,
    );
    expect(r.stderr).not.toMatch(/internal error/);
  });
});
