// `benchgrid compare --last SPEC` through the real CLI, in a results/ tree laid out as `run` lays it out:
// results/<spec>/<timestamp>/results.json, with real runs copied from test/fixtures/compare.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';

const FOLDER = 'results/compare-real';
// Named against their recorded order: run a started and finished before run b, whatever `ls` says.
const A = `${FOLDER}/2026-11-30T18-00-00`;
const B = `${FOLDER}/2026-11-30T09-00-00`;
const SPEC = path.join(FIXTURES, 'specs/compare-real.yaml');

/** A fixture results file as JSON text, with `edit` applied to its top level. */
function fixture(name: string, edit: (r: Record<string, unknown>) => void = () => {}): string {
  const r = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'compare', name), 'utf8')) as Record<string, unknown>;
  edit(r);
  return JSON.stringify(r);
}

const later = (r: Record<string, unknown>) =>
  (r.run = { ...(r.run as object), started: '2026-12-01T10:00:00.000Z', finished: '2026-12-01T10:05:00.000Z' });

let cwd: string;
const made: string[] = [];

/** A temporary directory removed after the tests. */
function scratch(prefix?: string): string {
  const d = tmpdir(prefix);
  made.push(d);
  return d;
}

afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

beforeAll(() => {
  cwd = scratch('benchgrid-compare-last-');
  write(cwd, `${A}/results.json`, fixture('real-run-a.results.json'));
  write(cwd, `${B}/results.json`, fixture('real-run-b.results.json'));
  // Newer than both, and not to be compared: an interrupted run, another spec's run, a bench-change run.
  write(
    cwd,
    `${FOLDER}/2026-12-01T10-00-00/results.json`,
    fixture('real-run-b.results.json', (r) => {
      later(r);
      r.partial = true;
    }),
  );
  write(
    cwd,
    `${FOLDER}/copied/results.json`,
    fixture('real-run-b.results.json', (r) => {
      later(r);
      r.spec = { ...(r.spec as object), name: 'resnet18_cpu' };
    }),
  );
  write(
    cwd,
    `${FOLDER}/change-2026-12-01T10-00-00/results.json`,
    fixture('real-run-b.results.json', (r) => {
      later(r);
      r.run = { ...(r.run as object), change: { tool: 'hooks', only: null } };
    }),
  );
  // The pointer `run` keeps, planted to lead out of the tree: never followed.
  fs.symlinkSync(path.dirname(cwd), path.join(cwd, FOLDER, 'latest'));
});

describe('benchgrid compare --last', () => {
  it('compares the two newest complete runs of the spec exactly as compare BEFORE AFTER does', async () => {
    const last = await cli(['compare', '--last', SPEC, '--format', 'json'], { cwd });
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).toContain(`comparing the last two runs of compare-real: ${A} (before) with ${B} (after)`);
    const explicit = await cli(['compare', A, B, '--format', 'json'], { cwd });
    expect(last.stdout).toBe(explicit.stdout);
  });

  it('says which newer run it skipped as incomplete, and how to finish it', async () => {
    const r = await cli(['compare', '--last', 'compare-real'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `skipped ${FOLDER}/2026-12-01T10-00-00: interrupted (its results are partial); finish it with \`benchgrid run --resume ${FOLDER}/2026-12-01T10-00-00\``,
    );
    expect(r.stderr).not.toContain('copied');
    expect(r.stderr).not.toContain('latest');
    expect(r.stdout).toContain(`before: ${A}`);
  });

  it("takes compare's options: the view, and --fail-on-slower's exit", async () => {
    for (const args of [
      ['--only-changed', '--format', 'markdown'],
      ['--fail-on-slower', '0'],
      ['--sort', 'change', '--mode', 'absolute'],
    ]) {
      const last = await cli(['compare', '--last', 'compare-real', ...args], { cwd });
      const explicit = await cli(['compare', A, B, ...args], { cwd });
      expect(last.code, args.join(' ')).toBe(explicit.code);
      expect(last.stdout, args.join(' ')).toBe(explicit.stdout);
    }
  });

  it('refuses with exit 2 when fewer than two complete runs are there, saying how many and where it looked', async () => {
    const one = scratch('benchgrid-compare-last-one-');
    write(one, `${A}/results.json`, fixture('real-run-a.results.json'));
    const r = await cli(['compare', '--last', SPEC], { cwd: one });
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain(`found 1 complete run of compare-real in ${FOLDER}; two are needed.`);
    const none = await cli(['compare', '--last', 'compare-real'], { cwd: scratch() });
    expect(none.code).toBe(EXIT.usage);
    expect(none.stderr).toContain(
      `found 0 complete runs of compare-real in ${FOLDER} (which does not exist); two are needed. Run the spec twice`,
    );
  });

  it('does not read a results.json that is a link out of the folder, and says so', async () => {
    const linked = scratch('benchgrid-compare-last-link-');
    write(linked, `${A}/results.json`, fixture('real-run-a.results.json'));
    const outside = write(scratch(), 'elsewhere.json', fixture('real-run-b.results.json'));
    fs.mkdirSync(path.join(linked, B), { recursive: true });
    fs.symlinkSync(outside, path.join(linked, B, 'results.json'));
    const r = await cli(['compare', '--last', 'compare-real'], { cwd: linked });
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain(`warning: ${B}/results.json is a symbolic link leading outside ${FOLDER}; not read`);
    expect(r.stderr).toContain('found 1 complete run of compare-real');
  });

  it('refuses results files beside --last, and a missing pair without it', async () => {
    const both = await cli(['compare', A, '--last', 'compare-real'], { cwd });
    expect(both.code).toBe(EXIT.usage);
    expect(both.stderr).toContain('takes no results files');
    const half = await cli(['compare', A], { cwd });
    expect(half.code).toBe(EXIT.usage);
    expect(half.stderr).toContain('compare needs two results files or run directories');
    const missing = await cli(['compare', '--last', 'specs/none.yaml'], { cwd });
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain('no such spec file');
  });
});
