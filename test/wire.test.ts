// The wire facts have one source (runners/harness/benchgrid_harness/wire.json): these tests fail when
// the schemas, the Python harness, the launchers or a runner manifest disagree with it.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../src/spec/manifests.ts';
import { WIRE, WIRE_VERSION } from '../src/wire.ts';
import { runOnce } from '../src/executors/local/spawn.ts';
import { FIXTURES, ROOT, testPython, tmpdir, write } from './helpers.ts';

const HARNESS = path.join(ROOT, 'runners/harness');

/** Runs a Python snippet with the harness importable; returns what it printed as JSON. */
async function python(code: string, env: Record<string, string> = {}): Promise<unknown> {
  const r = await execa(await testPython(), ['-c', code], {
    cwd: HARNESS,
    env: { ...env, PYTHONPATH: HARNESS },
    extendEnv: false,
  });
  return JSON.parse(r.stdout);
}

function schemaConst(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', file), 'utf8')).properties.protocol.const;
}

describe('the wire version', () => {
  it('is the `protocol` const of the request and result schemas', () => {
    expect(schemaConst('request.schema.json')).toBe(WIRE_VERSION);
    expect(schemaConst('result.schema.json')).toBe(WIRE_VERSION);
  });

  it('is what the Python harness writes into results and demands of requests', async () => {
    const dir = tmpdir();
    const other = write(dir, 'other.json', JSON.stringify({ protocol: WIRE_VERSION + 1 }));
    const same = write(dir, 'same.json', JSON.stringify({ protocol: WIRE_VERSION }));
    const got = await python(`
import json, benchgrid_harness
from benchgrid_harness import request, result
def problems(p):
    try:
        request.load_request(p)
    except Exception as e:
        return [l.strip() for l in str(e).splitlines()[1:]]
print(json.dumps({"version": benchgrid_harness.WIRE_VERSION,
                  "written": result.build({"status": "ok"}, "c", 0, "time", {}, {}, {})["protocol"],
                  "other": problems(${JSON.stringify(other)}), "same": problems(${JSON.stringify(same)})}))`);
    const {
      version,
      written,
      other: o,
      same: s,
    } = got as { version: number; written: number; other: string[]; same: string[] };
    expect(version).toBe(WIRE_VERSION);
    expect(written).toBe(WIRE_VERSION);
    expect(o.filter((p) => p.startsWith('protocol'))).toHaveLength(1);
    expect(s.filter((p) => p.startsWith('protocol'))).toEqual([]);
  });

  it('is declared by every runner manifest in the repository', () => {
    const dirs = [
      path.join(ROOT, 'runners/torch'),
      path.join(FIXTURES, 'runners/faulty'),
      path.join(FIXTURES, 'runners/leak'),
    ];
    for (const dir of dirs) {
      const m = readManifest(dir);
      if (m instanceof Error) throw m;
      expect(m.wireVersion).toBe(WIRE_VERSION);
    }
  });

  it('is checked when a manifest is read: another version is an error that says what to do', () => {
    const dir = tmpdir();
    write(
      dir,
      'manifest.json',
      JSON.stringify({ manifest: 1, runner: 'old', protocol: WIRE_VERSION + 1, adapters: {} }),
    );
    const m = readManifest(dir);
    expect(m).toBeInstanceOf(Error);
    expect((m as Error).message).toContain(
      `its "protocol" is ${WIRE_VERSION + 1}, but this benchgrid speaks wire version ${WIRE_VERSION}`,
    );
  });
});

/** A request as the orchestrator builds it, for a cell of the tiny fixture spec. */
async function tinyRequest(): Promise<Record<string, unknown>> {
  const { loadSpec } = await import('../src/validate/load.ts');
  const { buildRequest } = await import('../src/run/jobs.ts');
  const { runSettings } = await import('../src/settings/settings.ts');
  const loaded = await loadSpec(path.join(FIXTURES, 'specs/tiny.yaml'));
  const cell = loaded.plan!.cells.find((c) => c.id === 'A/single_module_output/hooks/resnet18')!;
  const request = buildRequest(
    { spec: loaded.spec!, manifests: loaded.manifests!, ...runSettings(loaded.spec!, {}, () => 3) },
    { key: 'k', cell, kind: 'time', index: 0 },
  );
  return request as unknown as Record<string, unknown>;
}

/** The problem lines the harness's load_request gives for each request file ([] when it loads). */
async function harnessProblems(files: string[]): Promise<string[][]> {
  return (await python(`
import json
from benchgrid_harness import request
out = []
for f in ${JSON.stringify(files)}:
    try:
        request.load_request(f)
        out.append([])
    except Exception as e:
        out.append([l.strip() for l in str(e).splitlines()[1:]])
print(json.dumps(out))`)) as string[][];
}

describe("a request's pairing", () => {
  it('is checked by the harness as the schema checks it: null or a baseline, a seed and a block size', async () => {
    const { validatorFor } = await import('../src/spec/schema.ts');
    const good = await tinyRequest();
    const pairing = good.pairing as Record<string, unknown>;
    const variants: [string, unknown][] = [
      ['good', pairing],
      ['null', null],
      ['no seed', { ...pairing, seed: undefined }],
      ['negative seed', { ...pairing, seed: -1 }],
      ['text seed', { ...pairing, seed: '1' }],
      ['no block', { ...pairing, before: 0 }],
      ['no module', { ...pairing, baseline: { tool: 'raw' } }],
      ['a list', [pairing]],
    ];
    const dir = tmpdir();
    const files = variants.map(([, p], i) => write(dir, `r${i}.json`, JSON.stringify({ ...good, pairing: p })));
    const got = await harnessProblems(files);
    const schema = validatorFor('request.schema.json');
    variants.forEach(([name, p], i) => {
      const ok = name === 'good' || name === 'null';
      expect(schema({ ...good, pairing: p === undefined ? undefined : JSON.parse(JSON.stringify(p)) }), name).toBe(ok);
      expect(
        got[i].filter((line) => line.startsWith('pairing')),
        name,
      ).toHaveLength(ok ? 0 : 1);
    });
  });
});

describe("a request's settings", () => {
  it('are bounded by the harness as the schema bounds them, so a hostile count never reaches the timing loop', async () => {
    const { validatorFor } = await import('../src/spec/schema.ts');
    const good = await tinyRequest();
    const settings = good.settings as Record<string, unknown>;
    const variants: [string, Record<string, unknown>, boolean][] = [
      ['as built', {}, true],
      [
        'the largest counts',
        {
          samples: 100_000,
          min_samples: 100_000,
          warmups: 10_000,
          threads: 1024,
          memory_calls: 100_000,
          sampling_budget_s: 86_400,
        },
        true,
      ],
      ['samples 100001', { samples: 100_001 }, false],
      ['samples 1e12', { samples: 1e12 }, false],
      ['warmups 10001', { warmups: 10_001 }, false],
      ['threads 1025', { threads: 1025 }, false],
      ['memory_calls 1e9', { memory_calls: 1e9 }, false],
      ['a day and a second', { sampling_budget_s: 86_401 }, false],
    ];
    const dir = tmpdir();
    const files = variants.map(([, change], i) =>
      write(dir, `s${i}.json`, JSON.stringify({ ...good, settings: { ...settings, ...change } })),
    );
    const got = await harnessProblems(files);
    const schema = validatorFor('request.schema.json');
    variants.forEach(([name, change, ok], i) => {
      expect(schema({ ...good, settings: { ...settings, ...change } }), name).toBe(ok);
      expect(
        got[i].filter((line) => line.startsWith('settings.')),
        name,
      ).toHaveLength(ok ? 0 : 1);
    });
  });
});

describe('the cell environment', () => {
  // Every allow-listed variable, plus two that must never reach a cell process.
  const parent: Record<string, string> = { PYTHONSTARTUP: '/evil.py', BENCHGRID_NOT_PASSED: 'x' };
  for (const k of WIRE.env.pass) parent[k] = `value-of-${k}`;
  Object.assign(parent, { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' });

  it('passes only the allow-list through, and sets the fixed variables, the threads and TMPDIR', async () => {
    const env = (await python(
      `
import json, os
from benchgrid_harness import launch
print(json.dumps(launch.cell_env(os.environ, ["/h", "/r"], 3, "/s")))`,
      parent,
    )) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(
      [
        ...new Set([...WIRE.env.pass, ...Object.keys(WIRE.env.set), ...WIRE.env.threads, 'PYTHONPATH', 'TMPDIR']),
      ].sort(),
    );
    expect(env.PYTHONPATH).toBe('/h:/r');
    expect(env.OMP_NUM_THREADS).toBe('3');
    expect(env.HF_HUB_OFFLINE).toBe('1');
    expect(env.TMPDIR).toBe('/s');
    expect(env.PYTHONSTARTUP).toBeUndefined();
    expect(env.BENCHGRID_NOT_PASSED).toBeUndefined();
  });

  it('is applied in one place: launch.py, which the driver, the fork server and selfcheck.py call', () => {
    const sources = [
      ...fs.readdirSync(path.join(ROOT, 'src'), { recursive: true }).map((f) => path.join('src', String(f))),
      ...fs.readdirSync(path.join(ROOT, 'runners'), { recursive: true }).map((f) => path.join('runners', String(f))),
    ]
      // The harness's own unit tests read the list to check launch.py against it; they apply nothing.
      .filter((f) => /\.(ts|py)$/.test(f) && !f.startsWith(path.join('runners', 'harness', 'tests')));
    const applying = sources.filter((f) =>
      /WIRE\.env\.pass|\["env"\]\["pass"\]|\['env'\]\['pass'\]/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(applying).toEqual(['runners/harness/benchgrid_harness/launch.py']);
    for (const f of [
      'runners/harness/driver.py',
      'runners/harness/benchgrid_harness/forkserver.py',
      'runners/harness/selfcheck.py',
    ]) {
      expect(fs.readFileSync(path.join(ROOT, f), 'utf8'), f).toMatch(/launch\.(run|cell_env|serve)\(/);
    }
  });

  it('reaches a cell process started by the cold launcher: no other variable of the caller does', async () => {
    const dir = tmpdir();
    const out = path.join(dir, 'env.json');
    const exit = await runOnce(await testPython(), {
      argv: ['-c', `import json, os; open(${JSON.stringify(out)}, "w").write(json.dumps(dict(os.environ)))`],
      cwd: dir,
      pythonpath: [HARNESS],
      threads: 2,
      tmpdir: dir,
      stdout: path.join(dir, 'o.log'),
      stderr: path.join(dir, 'e.log'),
      cpus: null,
      timeout_s: 60,
    });
    expect(exit.exitCode, exit.stderrTail).toBe(0);
    const env = JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, string>;
    const allowed = new Set([
      ...WIRE.env.pass,
      ...Object.keys(WIRE.env.set),
      ...WIRE.env.threads,
      'PYTHONPATH',
      'TMPDIR',
      'LC_CTYPE',
    ]);
    expect(Object.keys(env).filter((k) => !allowed.has(k))).toEqual([]);
    expect(env).toMatchObject({ PYTHONPATH: HARNESS, OMP_NUM_THREADS: '2', TMPDIR: dir, PYTHONHASHSEED: '0' });
  });
});
