// .github/workflows/bench-compare.yml cannot run here: parse it, check its shape, and run its
// validate and compare steps as GitHub would, on two results files standing in for the two runs.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '../../src/results/write.ts';
import { stableStringify } from '../../src/util/json.ts';
import { MARKDOWN_MARKER } from '../../src/compare/view.ts';
import { ROOT, tmpdir } from '../helpers.ts';
import { cpuRun } from './fixtures.ts';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}

const workflow = parse(fs.readFileSync(path.join(ROOT, '.github/workflows/bench-compare.yml'), 'utf8'));
const steps: Step[] = workflow.jobs['bench-compare'].steps;
const step = (name: string) => steps.find((s) => s.name === name)!;

/** Runs a step's script as GitHub does (`bash -e`) in the repository, `npx benchgrid` pointing at this checkout. */
async function runStep(s: Step, env: Record<string, string>) {
  expect(s.run, 'no expression inside a script: they go through env').not.toMatch(/\$\{\{/);
  const script = s.run!.replace(/npx benchgrid/g, `node ${JSON.stringify(path.join(ROOT, 'bin/benchgrid.js'))}`);
  return execa('bash', ['-e', '-c', script], {
    cwd: env.CWD ?? ROOT,
    reject: false,
    env: { ...workflow.env, ...env, NO_COLOR: '1' },
  });
}

let temp: string;

beforeAll(() => {
  temp = tmpdir('benchgrid-bench-compare-');
  // The pull request makes every tool 30% slower and leaves the raw forward alone, so the default
  // comparison (each cell relative to its raw cell) sees the slowdown.
  const pr = cpuRun({ seed: 2 });
  for (const c of pr.cells.filter((x) => x.tool !== 'raw' && x.median_ms !== null)) {
    c.samples_ms = c.samples_ms!.map((p) => p.map((v) => v * 1.3));
    c.per_process = c.per_process!.map((p) => ({
      ...p,
      median_ms: p.median_ms * 1.3,
      min_ms: p.min_ms * 1.3,
      max_ms: p.max_ms * 1.3,
      iqr_ms: p.iqr_ms * 1.3,
    }));
    for (const key of ['median_ms', 'min_ms', 'max_ms'] as const) c[key] = c[key]! * 1.3;
  }
  for (const [dir, results] of [
    ['base', cpuRun({ seed: 1 })],
    ['pr', pr],
  ] as const) {
    fs.mkdirSync(path.join(temp, dir));
    fs.writeFileSync(path.join(temp, dir, 'results.json'), stableStringify(toJson(results)));
  }
});

describe('.github/workflows/bench-compare.yml', () => {
  it('measures both sides with the same spec and cells, then compares the two run directories', () => {
    expect(workflow.permissions['pull-requests']).toBe('write');
    const base = step('Measure the target branch').run!;
    const pr = step('Measure the pull request').run!;
    expect(base).toContain('npx benchgrid run "$SPEC" --only "$ONLY" --out "$RUNNER_TEMP/base"');
    expect(pr).toBe('npx benchgrid run "$SPEC" --only "$ONLY" --out "$RUNNER_TEMP/pr"');
    expect(step('Post or update the comment').run).toContain(`startswith("${MARKDOWN_MARKER}")`);
    expect(fs.existsSync(path.join(ROOT, workflow.env.SPEC))).toBe(true);
  });

  it('its validate step passes on its spec', async () => {
    const r = await runStep(step('Validate the spec'), {});
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it('its compare step writes the marked markdown and records exit 4 for a slowdown', async () => {
    const outputs = path.join(temp, 'outputs');
    const cwd = tmpdir();
    fs.writeFileSync(outputs, '');
    const r = await runStep(step('Compare'), {
      RUNNER_TEMP: temp,
      GITHUB_OUTPUT: outputs,
      GITHUB_STEP_SUMMARY: path.join(temp, 'summary.md'),
      CWD: cwd,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fs.readFileSync(outputs, 'utf8')).toBe('status=4\n');
    const md = fs.readFileSync(path.join(cwd, 'compare.md'), 'utf8');
    expect(md.split('\n')[0]).toBe(MARKDOWN_MARKER);
    expect(md).toMatch(/--fail-on-slower 10\.0%`: \*\*\d+ cell\(s\) significantly slower/);
    expect(fs.readFileSync(path.join(temp, 'summary.md'), 'utf8')).toBe(md);
  });
});
