// .github/workflows/spec-review.yml cannot run here: parse it and run the benchgrid steps it runs, the
// way a pull request's checkout would, in a temporary git repository with an origin/main to diff against.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tmpdir, write } from '../helpers.ts';
import { GIT_ENV, gitRepo, PAIRS, SMALL, variant } from './fixtures.ts';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
  env?: Record<string, string>;
  if?: string;
  'continue-on-error'?: boolean;
}

const workflow = parse(fs.readFileSync(path.join(ROOT, '.github/workflows/spec-review.yml'), 'utf8'));
const steps: Step[] = workflow.jobs['spec-review'].steps;
const benchgridSteps = steps.filter((s) => s.run?.includes('benchgrid'));

/** The `${{ }}` expressions the benchgrid steps use, as GitHub fills them for a pull request into main. */
const EXPRESSIONS: Record<string, string> = { 'github.base_ref': 'main' };

/** Runs a step's script as GitHub does (`bash -e`), with `npx benchgrid` pointing at this checkout. */
async function runStep(step: Step, cwd: string, outputs: string) {
  const env = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([k, v]) => [
      k,
      v.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, e) => {
        if (!(e in EXPRESSIONS)) throw new Error(`the test does not know the expression ${e}`);
        return EXPRESSIONS[e];
      }),
    ]),
  );
  expect(step.run, 'no expression inside a script: they go through env').not.toMatch(/\$\{\{/);
  const script = step.run!.replace(/npx benchgrid/g, `node ${JSON.stringify(path.join(ROOT, 'bin/benchgrid.js'))}`);
  return execa('bash', ['-e', '-c', script], {
    cwd,
    reject: false,
    env: {
      ...GIT_ENV,
      ...env,
      NO_COLOR: '1',
      GITHUB_OUTPUT: outputs,
      GITHUB_STEP_SUMMARY: path.join(path.dirname(outputs), 'summary.md'),
    },
  });
}

/** A repository whose main has the small spec, checked out on a pull request that changes it. */
async function pullRequest(change: string) {
  const { dir, git } = await gitRepo();
  write(dir, 'specs/small.yaml', SMALL);
  write(dir, 'specs/other.yaml', SMALL);
  await git('add', '-A');
  await git('commit', '-q', '-m', 'main');
  await git('update-ref', 'refs/remotes/origin/main', 'HEAD');
  await git('checkout', '-q', '-b', 'pr');
  write(dir, 'specs/small.yaml', change);
  await git('commit', '-q', '-am', 'change the spec');
  const outputs = path.join(tmpdir(), 'outputs');
  fs.writeFileSync(outputs, '');
  return { dir, outputs };
}

describe('.github/workflows/spec-review.yml', () => {
  it('runs on pull requests touching specs/, with the full history, Node 20 and npm ci', () => {
    expect(workflow.on.pull_request.paths).toEqual(['specs/**']);
    expect(workflow.permissions['pull-requests']).toBe('write');
    expect(steps.find((s) => s.uses?.startsWith('actions/checkout@'))?.with).toEqual({ 'fetch-depth': 0 });
    expect(steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(20);
    expect(steps.some((s) => s.run === 'npm ci')).toBe(true);
    expect(benchgridSteps.map((s) => s.id)).toEqual(['validate', 'diff']);
    expect(steps.find((s) => s.run?.includes('gh pr comment'))?.run).toContain('--body-file diff.md');
  });

  describe('its benchgrid steps, on a pull request that changes the protocol', () => {
    let dir: string;
    let outputs: string;
    let results: Awaited<ReturnType<typeof runStep>>[];

    beforeAll(async () => {
      ({ dir, outputs } = await pullRequest(fs.readFileSync(path.join(PAIRS, 'protocol-change/new.yaml'), 'utf8')));
      results = [];
      for (const step of benchgridSteps) results.push(await runStep(step, dir, outputs));
    });

    it('validates every spec', () => {
      expect(results[0].exitCode).toBe(0);
      expect(results[0].stdout).toContain('specs/small.yaml: valid: 7 cells');
      expect(results[0].stdout).toContain('specs/other.yaml: valid: 7 cells');
    });

    it('writes the markdown diff of the changed spec against origin/main, and status 0', () => {
      expect(results[1].exitCode).toBe(0);
      expect(fs.readFileSync(outputs, 'utf8')).toBe('status=0\n');
      const md = fs.readFileSync(path.join(dir, 'diff.md'), 'utf8');
      expect(md).toContain('## benchgrid diff against `origin/main`');
      expect(md).toContain('### `specs/small.yaml` (small)');
      expect(md).toContain('Compared with `origin/main:specs/small.yaml`.');
      expect(md).toContain('**7 cells, 6 planned: 6 to re-measure after 1 definition change.**');
      expect(md).not.toContain('other.yaml');
    });
  });

  it('on a pull request that breaks a spec, validate fails and the diff step records status 2 with positions', async () => {
    const { dir, outputs } = await pullRequest(variant(['tools: [raw, hooks, tv_fx]', 'tools: [raw, hoks, tv_fx]']));
    const [validate, diff] = [
      await runStep(benchgridSteps[0], dir, outputs),
      await runStep(benchgridSteps[1], dir, outputs),
    ];
    expect(validate.exitCode).toBe(2);
    expect(validate.stderr).toContain("specs/small.yaml:28:18 groups.A.tools[1]: unknown tool 'hoks'.");
    expect(diff.exitCode).toBe(0);
    expect(fs.readFileSync(outputs, 'utf8')).toBe('status=2\n');
    const md = fs.readFileSync(path.join(dir, 'diff.md'), 'utf8');
    expect(md).toContain('### `specs/small.yaml` is invalid (new version)');
    expect(md).toContain("specs/small.yaml:28:18 groups.A.tools[1]: unknown tool 'hoks'. Did you mean 'hooks'?");
  });
});
