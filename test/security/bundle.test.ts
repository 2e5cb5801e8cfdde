// Issue 15, hostile bundles: a bundle comes back from another machine, so its manifest, journal and
// spec.json are parsed at the edge; nothing in them reaches a file outside the bundle, and an edited
// journal is refused instead of losing measurements in silence.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestBundles } from '../../src/executors/bundle/ingest.ts';
import { readManifestFile } from '../../src/executors/bundle/manifest.ts';
import { loadBundleSpec } from '../../src/executors/bundle/spec.ts';
import { UserError } from '../../src/errors.ts';
import { cli, tmpdir } from '../helpers.ts';
import { exportTinyBundle } from '../helpers/tiny-bundle.ts';

let pristine: string;

beforeAll(async () => {
  pristine = await exportTinyBundle(
    path.join(tmpdir('benchgrid-security-bundle-'), 'bundle'),
    'A/single_module_output/*/*',
  );
}, 120_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path

/** A fresh copy of the exported bundle beside a sentinel file outside it, with bundle.json edited. */
function hostile(edit: (m: Json) => void): { dir: string; sentinel: string } {
  const root = tmpdir('benchgrid-hostile-bundle-');
  const dir = path.join(root, 'bundle');
  fs.cpSync(pristine, dir, { recursive: true });
  const sentinel = path.join(root, 'outside', 'sentinel.txt');
  fs.mkdirSync(path.dirname(sentinel));
  fs.writeFileSync(sentinel, 'root:x:0:0:keep me\n');
  const file = path.join(dir, 'bundle.json');
  const m = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(m);
  fs.writeFileSync(file, JSON.stringify(m));
  return { dir, sentinel };
}

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('ingest refuses a hostile bundle', () => {
  it('a manifest with result: ../../../../etc/passwd is refused before anything is read', () => {
    const { dir } = hostile((m) => {
      m.jobs[0].result = '../../../../etc/passwd';
    });
    expect(refusal(() => ingestBundles([dir], { out: path.join(dir, 'out') }))).toMatch(
      /bundle\.json: refused: jobs\[0\]\.result "\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd" leads outside the bundle/,
    );
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
  });

  it('absolute paths and symbolic links out of the bundle are refused too', () => {
    const abs = hostile((m) => {
      m.jobs[0].stdout = '/etc/passwd';
    });
    expect(refusal(() => readManifestFile(abs.dir))).toMatch(/jobs\[0\]\.stdout "\/etc\/passwd" is absolute/);
    const link = hostile(() => {});
    const job = readManifestFile(link.dir).jobs[0];
    fs.mkdirSync(path.dirname(path.join(link.dir, job.result)), { recursive: true });
    fs.symlinkSync(link.sentinel, path.join(link.dir, job.result));
    expect(refusal(() => readManifestFile(link.dir))).toMatch(/is a symbolic link leading outside the bundle/);
  });

  it('runners: ["../../../../etc"] is refused, not turned into an unsupported cell', () => {
    const { dir } = hostile((m) => {
      m.runners = ['../../../../etc'];
    });
    expect(refusal(() => readManifestFile(dir))).toMatch(/\/runners\/0 must match pattern/);
  });

  it.each<[string, (m: Json) => void, RegExp]>([
    [
      'jobs: [null]',
      (m) => {
        m.jobs = [null];
      },
      /\/jobs\/0 must be object/,
    ],
    [
      'shard: null',
      (m) => {
        m.shard = null;
      },
      /\/shard must be object/,
    ],
    [
      'a timeout of 1e10 seconds',
      (m) => {
        m.jobs[0].timeout_s = 1e10;
      },
      /\/jobs\/0\/timeout_s must be <= 86400/,
    ],
    [
      'two jobs writing one result file',
      (m) => {
        m.jobs[1].result = m.jobs[0].result;
      },
      /jobs\[1\]\.result .* is also another job's file/,
    ],
  ])('%s', (_, edit, pattern) => {
    const { dir } = hostile(edit);
    expect(refusal(() => readManifestFile(dir))).toMatch(pattern);
  });

  it('a spec.json that is {} is refused as not a valid spec', () => {
    const { dir } = hostile(() => {});
    fs.writeFileSync(path.join(dir, 'spec.json'), '{}');
    expect(refusal(() => loadBundleSpec(dir, readManifestFile(dir)))).toMatch(
      /spec\.json: the bundle's spec is not a valid spec \(.*missing required key/,
    );
  });

  it('a journal whose cell field was changed is refused, naming the process', () => {
    const { dir } = hostile(() => {});
    const job = readManifestFile(dir).jobs[0];
    const line = {
      type: 'process',
      key: job.key,
      cell: 'A/single_module_output/raw/elsewhere',
      kind: job.kind,
      index: job.index,
      started: '2026-01-01T00:00:00Z',
      wall_s: 1,
      cpus: null,
      start: 'cold',
      exit: { exitCode: 0, signal: null, timedOut: false, timeoutS: 120, spawnError: null },
    };
    fs.writeFileSync(path.join(dir, 'journal.jsonl'), JSON.stringify(line) + '\n');
    const message = refusal(() => ingestBundles([dir], { out: path.join(dir, 'out'), allowMissing: true }));
    expect(message).toMatch(
      /1 journal line\(s\) disagree with the manifest about their cell, kind or index: .*journal: A\/single_module_output\/raw\/elsewhere/,
    );
  });

  it('a journal record of the wrong shape is refused with its line number', () => {
    const { dir } = hostile(() => {});
    fs.writeFileSync(path.join(dir, 'journal.jsonl'), '{"type":"process","key":null}\n');
    expect(refusal(() => ingestBundles([dir], { out: path.join(dir, 'out') }))).toMatch(
      /journal\.jsonl:1: not a journal record the driver wrote/,
    );
  });

  it('the CLI exits 2 with one message and no stack trace', async () => {
    const { dir } = hostile((m) => {
      m.jobs = [null];
    });
    const r = await cli(['ingest', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bundle\.json: not a bundle manifest benchgrid wrote/);
    expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  });
});

describe('driver.py refuses a hostile bundle', () => {
  it('result and stdout paths outside the bundle: exit 2, and the files there are untouched', async () => {
    const { dir, sentinel } = hostile((m) => {
      m.jobs[0].result = '../outside/sentinel.txt';
      m.jobs[1].stdout = '../outside/sentinel.txt';
    });
    const before = fs.statSync(sentinel);
    const r = await execa('python3', [path.join(dir, 'driver.py'), dir], { reject: false, stdin: 'ignore' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /jobs\[0\]\.result: '\.\.\/outside\/sentinel\.txt' leads outside the bundle; refusing to touch it/,
    );
    expect(fs.readFileSync(sentinel, 'utf8')).toBe('root:x:0:0:keep me\n');
    expect(fs.statSync(sentinel).mtimeMs).toBe(before.mtimeMs);
    expect(fs.existsSync(path.join(dir, 'journal.jsonl'))).toBe(false);
  });
});
