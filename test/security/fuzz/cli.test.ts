// The fuzz suite's command-line part: hostile files through the CLI's one error boundary, in-process
// (main(), a few hundred cases) and as real subprocesses (a handful). Exit 1 means a bug: it must
// never happen; nor may a stack trace be printed or a file appear outside the temporary directory.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli.ts';
import { cli, ROOT, tmpdir } from '../../helpers.ts';
import { tinyResultsJson } from '../../report/tiny-results.ts';
import { applyEdits, edits, FUZZ_SEED } from './mutate.ts';

let dir: string;
let repoBefore: string;

/** The repository's top level and its results/ folder: commands given files elsewhere must not write here. */
function repoState(): string {
  const results = path.join(ROOT, 'results');
  return [...fs.readdirSync(ROOT), ...(fs.existsSync(results) ? fs.readdirSync(results) : [])].sort().join('\n');
}

const SPEC = `benchgrid: 1
name: fuzz
title: Fuzz
device: cpu
subjects:
  s: { label: S, model: { builder: torchvision, name: resnet18, seed: 0 }, inputs: { kind: image, shape: [1, 3, 8, 8], seed: 0 }, sites: { l: layer2 } }
contracts: { single_module_output: { site: l }, raw_forward: {} }
tools: { raw: { label: raw }, hooks: { label: hooks }, reference: { label: plain } }
groups:
  A: { reference: hooks, subjects: [s], contracts: [single_module_output], tools: [raw, hooks] }
  B: { subjects: [s], cells: { raw_forward: [reference] } }
`;

/** Hostile files and the commands that read them, the same `n` for a given seed. */
function cases(n: number): string[][] {
  const base = parse(SPEC) as Record<string, unknown>;
  const samples = fc.sample(fc.tuple(edits, edits, fc.nat(10)), { seed: FUZZ_SEED, numRuns: n });
  return samples.map(([specEdits, resultEdits, which], i) => {
    const spec = path.join(dir, `spec-${i}.yaml`);
    // Every fourth spec is left valid, so that the commands also get as far as their work.
    fs.writeFileSync(spec, stringify(i % 4 === 0 ? base : applyEdits(base, specEdits)));
    const results = path.join(dir, `results-${i}.json`);
    fs.writeFileSync(results, JSON.stringify(applyEdits(tinyResultsJson(), resultEdits)));
    // A run directory holding the same file, for history and for a results argument that is a directory.
    fs.mkdirSync(path.join(dir, `run-${i}`), { recursive: true });
    fs.copyFileSync(results, path.join(dir, `run-${i}`, 'results.json'));
    return [
      ['validate', spec],
      ['plan', spec, '--json'],
      ['report', results, '--format', 'table'],
      ['report', results, '--format', 'html', '--out', path.join(dir, `report-${i}.html`)],
      ['compare', results, results, '--format', 'json'],
      ['env', 'list', spec],
      ['report', path.join(dir, `run-${i}`), '--format', 'markdown'],
      ['compare', results, path.join(dir, `run-${i}`), '--format', 'markdown', '--fail-on-slower', '5'],
      ['ratios', results, results, '--tools', 'all'],
      ['history', path.join(dir, `run-${i}`), '--out', path.join(dir, `site-${i}`)],
      ['plan', spec],
    ][which];
  });
}

beforeAll(() => {
  dir = tmpdir('benchgrid-fuzz-cli-');
  repoBefore = repoState();
});

afterAll(() => {
  expect(repoState()).toBe(repoBefore);
});

/** The longest one command may take before it counts as a hang (generous: a busy two-core machine). */
const BOUND_MS = 20_000;
/** benchgrid's own workflow commands (validate's annotations): the only lines that may start with `::`. */
const OWN_ANNOTATION = /^::(error|warning) file=[^:,]*,line=\d+,col=\d+,title=benchgrid [a-z-]+::/;

/** Runs main() with stdout and stderr captured, as in a GitHub Actions job (GITHUB_ACTIONS=true). */
async function inProcess(argv: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const writes = [process.stdout.write, process.stderr.write];
  const capture = ((chunk: unknown) => {
    out.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  const cwd = process.cwd();
  const actions = process.env.GITHUB_ACTIONS;
  try {
    process.chdir(dir);
    process.env.GITHUB_ACTIONS = 'true';
    return { code: await main(argv), out: out.join('') };
  } finally {
    process.chdir(cwd);
    if (actions === undefined) delete process.env.GITHUB_ACTIONS;
    else process.env.GITHUB_ACTIONS = actions;
    [process.stdout.write, process.stderr.write] = writes;
  }
}

describe('fuzz: hostile files through the CLI boundary', () => {
  it('in-process: 300 commands on mutated specs and results exit 0, 2, 3 or 4, never 1, with no stack trace', async () => {
    const codes = new Map<string, number>();
    for (const argv of cases(300)) {
      const t0 = performance.now();
      const r = await inProcess(argv);
      const ms = performance.now() - t0;
      expect(ms, `${argv.join(' ')}: past the ${BOUND_MS} ms bound of one command`).toBeLessThan(BOUND_MS);
      expect([0, 2, 3, 4], `${argv.join(' ')}\n${r.out}`).toContain(r.code);
      expect(r.out).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
      // In a GitHub Actions job nothing a file holds becomes a workflow command.
      for (const line of r.out.split('\n'))
        if (/^\s*::/.test(line)) expect(line, argv.join(' ')).toMatch(OWN_ANNOTATION);
      expect(r.out, argv.join(' ')).not.toContain('##[');
      const key = `${argv[0]} ${r.code}`;
      codes.set(key, (codes.get(key) ?? 0) + 1);
    }
    // The mutations are mild enough that every command both succeeds and refuses some of the time.
    for (const command of ['validate', 'plan', 'report', 'compare']) {
      expect(codes.get(`${command} 0`), command).toBeGreaterThan(0);
      expect(codes.get(`${command} 2`), command).toBeGreaterThan(0);
    }
    const outside = fs
      .readdirSync(dir)
      .filter((f) => !/^((spec|results|report)-\d+\.(yaml|json|html)|(run|site)-\d+)$/.test(f));
    expect(outside).toEqual([]);
  }, 120_000);

  it('as subprocesses: a handful of the same commands behave the same', async () => {
    for (const argv of cases(6)) {
      const r = await cli(argv, {
        cwd: dir,
        env: { BENCHGRID_CACHE: path.join(dir, 'cache'), HOME: dir },
        timeout: BOUND_MS * 3,
      });
      expect([0, 2, 3, 4], `${argv.join(' ')}\n${r.stderr}`).toContain(r.code);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
    }
    expect(fs.existsSync(path.join(dir, 'cache'))).toBe(false);
  }, 120_000);
});
