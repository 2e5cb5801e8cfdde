// A self-contained bundle: one request per cell process, the harness and runners, the environments'
// requirements, the resolved spec and a Python driver. Planned purely, then written in one step.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import type { Plan } from '../plan/plan.ts';
import { cellSlug } from '../run/execute.ts';
import { buildJobs, buildRequest, type Job, type Overrides } from '../run/jobs.ts';
import { WIRE_VERSION } from '../wire.ts';
import { HARNESS_DIR, type Manifest } from '../spec/manifests.ts';
import type { Protocol, Spec } from '../spec/types.ts';
import { BUNDLE_FORMAT, MANIFEST_FILE, type BundleJob, type BundleManifest } from './manifest.ts';

/** What a bundle is cut from. */
export interface ExportInput {
  spec: Spec;
  plan: Plan;
  manifests: Record<string, Manifest | Error>;
  protocol: Protocol;
  device: 'cpu' | 'cuda';
  selected: Set<string>;
  only: string | null;
  overrides: Overrides;
  shard: { index: number; count: number };
  created: string;
}

/** A planned bundle: the manifest and the request of each job, by path inside the bundle. */
export interface PlannedBundle {
  manifest: BundleManifest;
  requests: Map<string, Record<string, unknown>>;
}

/**
 * Splits jobs into `count` shards so that every process of one cell lands in the same shard (a cell's
 * processes are compared with each other, and never run at the same time): cells round-robin in run order.
 */
export function shardJobs(jobs: Job[], count: number): Job[][] {
  const cellShard = new Map<string, number>();
  const shards: Job[][] = Array.from({ length: count }, () => []);
  for (const job of jobs) {
    if (!cellShard.has(job.cell.id)) cellShard.set(job.cell.id, cellShard.size % count);
    shards[cellShard.get(job.cell.id)!].push(job);
  }
  return shards;
}

/** Pure: the manifest and requests of one shard. */
export function planBundle(x: ExportInput): PlannedBundle {
  const all = buildJobs(x.plan, x.protocol, x.selected);
  const mine = shardJobs(all, x.shard.count)[x.shard.index];
  const runnerOf = (tool: string) => x.spec.tools[tool].runner;
  const requests = new Map<string, Record<string, unknown>>();
  const jobs: BundleJob[] = mine.map((job) => {
    const base = `${cellSlug(job.cell.id)}/${job.kind}-${job.index}`;
    const request = `requests/${base}.json`;
    requests.set(request, buildRequest(x.spec, job, x.protocol, x.device, x.manifests));
    const dirs = ['harness', `runners/${job.cell.runner}`];
    if (job.cell.reference) dirs.push(`runners/${runnerOf(job.cell.reference)}`);
    return {
      key: job.key, cell: job.cell.id, kind: job.kind, index: job.index, environment: job.cell.environment,
      runner: job.cell.runner, request, result: `results/${base}.json`, stdout: `logs/${base}.stdout.log`,
      stderr: `logs/${base}.stderr.log`, timeout_s: x.protocol.timeout_s, threads: x.protocol.threads,
      pythonpath: [...new Set(dirs)],
    };
  });
  const environments: BundleManifest['environments'] = {};
  for (const name of new Set(all.map((j) => j.cell.environment))) {
    const env = x.spec.environments[name];
    environments[name] = { python: env?.python ?? 'python3', requirements: env?.requirements ?? [], file: `requirements-${name}.txt` };
  }
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    protocol: WIRE_VERSION,
    created: x.created,
    spec: { name: x.spec.name, title: x.spec.title, digest: x.spec.digest, device: x.spec.device, file: x.spec.file },
    device: x.device,
    only: x.only,
    overrides: x.overrides,
    shard: x.shard,
    runners: [...new Set(Object.values(x.spec.tools).map((t) => t.runner))].sort(),
    environments,
    jobs,
  };
  return { manifest, requests };
}

/** Writes a planned bundle into `dir`, which must not hold anything yet. */
export function writeBundle(dir: string, planned: PlannedBundle, spec: Spec): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    throw new UserError(`${dir} is not empty; export into a new directory (a bundle's results must not mix with another's).`);
  }
  const { manifest } = planned;
  fs.mkdirSync(dir, { recursive: true });
  // The harness package only: the driver goes to the top, selfcheck.py belongs to the repository.
  copyTree(path.join(HARNESS_DIR, 'benchgrid_harness'), path.join(dir, 'harness', 'benchgrid_harness'));
  for (const runner of manifest.runners) {
    const from = spec.runners[runner];
    if (!from || !fs.existsSync(from)) throw new UserError(`runner '${runner}' has no directory (${from ?? 'not declared'}); cannot put it in the bundle.`);
    copyTree(from, path.join(dir, 'runners', runner));
  }
  fs.copyFileSync(path.join(HARNESS_DIR, 'driver.py'), path.join(dir, 'driver.py'));
  for (const [name, env] of Object.entries(manifest.environments)) {
    const head = `# Environment '${name}' of spec ${spec.name} (python: ${env.python}).\n# The cell processes need torch and torchvision at least; install these with pip into the interpreter given to driver.py.\n`;
    fs.writeFileSync(path.join(dir, env.file), head + env.requirements.map((r) => `${r}\n`).join(''));
  }
  for (const [rel, request] of planned.requests) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(request, null, 1) + '\n');
  }
  // Declaration order is meaningful in a spec (it orders the cells): written as it is, not sorted.
  fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec.data, null, 1) + '\n');
  fs.writeFileSync(path.join(dir, 'README.txt'), readme(manifest));
  // Written last: a directory with bundle.json is a complete bundle.
  fs.writeFileSync(path.join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1) + '\n');
}

function readme(m: BundleManifest): string {
  const envs = Object.keys(m.environments);
  return [
    `benchgrid bundle: spec ${m.spec.name} (${m.spec.digest.slice(0, 12)}), shard ${m.shard.index + 1}/${m.shard.count}, ${m.jobs.length} cell processes on ${m.device}.`,
    '',
    'Run it with Python 3.8+ and an interpreter that has torch and torchvision (see requirements-*.txt):',
    `    python3 driver.py --python /path/to/python-with-torch${envs.length > 1 ? `   (or --env-python ${envs[0]}=PATH per environment)` : ''}`,
    'The driver writes results/, logs/ and journal.jsonl here; run it again to resume after an interruption.',
    'Then, where benchgrid is installed: benchgrid ingest THIS_DIR [OTHER_SHARDS...] --out RESULTS_DIR',
    '',
  ].join('\n');
}

function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, {
    recursive: true,
    filter: (src) => !/(^|[\\/])(__pycache__|\.pytest_cache|\.ruff_cache)$/.test(src) && !src.endsWith('.pyc'),
  });
}
