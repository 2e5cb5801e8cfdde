// A self-contained bundle: one request per cell process, the harness and runners, the environments'
// requirements, the resolved spec and a Python driver. Planned purely, then written in one step.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../errors.ts';
import { buildRequest, type Job } from '../../run/jobs.ts';
import { bundleFiles, bundlePythonPath, type RunPlan } from '../../run/run-plan.ts';
import type { CellRequest } from '../../records/request.ts';
import { HARNESS_DIR } from '../../repository.ts';
import { NO_INDEX, type Spec } from '../../spec/types.ts';
import { indexLocations, localDirectory } from '../../spec/package-index.ts';
import { requirementsFileOptions } from '../../env/pip-index.ts';
import { WIRE_VERSION } from '../../wire.ts';
import { BUNDLE_FORMAT, MANIFEST_FILE, type BundleJob, type BundleManifest } from './manifest.ts';
import { dict } from '../../util/dict.ts';
import { isNoSpace, noSpaceError } from '../../util/files.ts';

/** What a bundle is cut from: the run plan, the shard, the export's time. */
export interface ExportInput extends RunPlan {
  shard: { index: number; count: number };
  created: string;
}

/** A planned bundle: the manifest and the request of each job, by path inside the bundle. */
export interface PlannedBundle {
  manifest: BundleManifest;
  requests: Map<string, CellRequest>;
}

/**
 * Splits jobs into `count` shards so that every process of one cell lands in the same shard (a cell's
 * processes are compared with each other, and never run at the same time): cells round-robin in
 * `cellOrder` (the plan's order; without it, the jobs' order). Since the plan's order does not depend
 * on the schedule, shards exported one by one agree on which cell goes where. Each shard keeps the
 * jobs' order, so an interleaved schedule stays interleaved within a shard: its rounds are the run's
 * rounds restricted to the shard's cells (docs/protocol.md).
 */
export function shardJobs(jobs: Job[], count: number, cellOrder?: string[]): Job[][] {
  const order = [...new Set([...(cellOrder ?? []), ...jobs.map((j) => j.cell.id)])];
  const withJobs = new Set(jobs.map((j) => j.cell.id));
  const cellShard = new Map(order.filter((c) => withJobs.has(c)).map((c, k) => [c, k % count]));
  const shards: Job[][] = Array.from({ length: count }, () => []);
  for (const job of jobs) shards[cellShard.get(job.cell.id)!].push(job);
  return shards;
}

/** Pure: the manifest and requests of one shard. */
export function planBundle(x: ExportInput): PlannedBundle {
  const mine = shardJobs(
    x.jobs,
    x.shard.count,
    x.plan.cells.map((c) => c.id),
  )[x.shard.index];
  // A request names a model file or weights by their path on this machine; a bundle does not carry them yet,
  // so its requests would fail on the machine it is sent to. Refused here, before anything is written.
  for (const id of new Set(mine.map((j) => j.cell.subject))) {
    const m = x.spec.subjects[id]?.model;
    const t = x.spec.subjects[id]?.inputs.text?.tokenizer;
    const tokenizer = t?.kind === 'pretrained' ? t.path : null;
    const local =
      m?.source?.file ??
      (m?.weights && m.weights.kind !== 'hub' ? m.weights.path : null) ??
      m?.config_from ??
      tokenizer;
    if (local)
      throw new UserError(
        `subject '${id}' needs ${local}, a file on this machine, and bundles do not carry a subject's model files or weights yet. Run this spec with \`benchgrid run\` where the files are, or export a spec whose subjects a builder makes alone.`,
      );
  }
  refuseLocalIndexes(x);
  const requests = new Map<string, CellRequest>();
  const jobs: BundleJob[] = mine.map((job) => {
    const files = bundleFiles(job);
    requests.set(files.request, buildRequest(x, job));
    return {
      key: job.key,
      cell: job.cell.id,
      kind: job.kind,
      index: job.index,
      environment: job.cell.environment,
      runner: job.cell.runner,
      ...files,
      timeout_s: x.protocol.timeout_s,
      threads: x.protocol.threads,
      pythonpath: bundlePythonPath(x.spec, job.cell),
    };
  });
  const environments: BundleManifest['environments'] = dict();
  for (const name of new Set(x.jobs.map((j) => j.cell.environment))) {
    const env = x.spec.environments[name];
    environments[name] = {
      python: env?.python ?? 'python3',
      requirements: env?.requirements ?? [],
      file: `requirements-${name}.txt`,
    };
  }
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    protocol: WIRE_VERSION,
    created: x.created,
    spec: { name: x.spec.name, title: x.spec.title, digest: x.spec.digest, device: x.spec.device, file: x.spec.file },
    device: x.device,
    only: x.selection.only,
    schedule: x.schedule,
    overrides: x.overrides,
    shard: x.shard,
    runners: [...new Set(Object.values(x.spec.tools).map((t) => t.runner))].sort(),
    environments,
    jobs,
  };
  return { manifest, requests };
}

/**
 * A bundle's requirements files name an environment's package indexes by URL, for the pip that installs
 * them elsewhere; a directory on this machine (a path or a file: URL) cannot travel with it, so an
 * environment that names one is refused before anything is written.
 */
function refuseLocalIndexes(x: ExportInput): void {
  for (const name of new Set(x.jobs.map((j) => j.cell.environment))) {
    const local = indexLocations(x.spec.environments[name]?.index ?? NO_INDEX).find(
      (l) => localDirectory(l.location) !== null,
    );
    if (local)
      throw new UserError(
        `environment '${name}' takes packages from ${local.location} (its ${local.key}), a directory on this machine, and a bundle does not carry one. Export a spec whose environment names its indexes by https:// URL (docs/spec.md, environments), or run this spec with \`benchgrid run\` where the directory is.`,
      );
  }
}

/**
 * Writes a planned bundle into `dir`, which must not hold anything yet. It is written into a sibling
 * directory and renamed into place once whole, so a full disk or an interruption leaves no half bundle
 * (the temporary directory is removed; the error names the file that did not fit).
 */
export function writeBundle(dir: string, planned: PlannedBundle, spec: Spec): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    throw new UserError(
      `${dir} is not empty; export into a new directory (a bundle's results must not mix with another's).`,
    );
  }
  fs.mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
  const tmp = `${path.resolve(dir)}.partial-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  try {
    writeBundleFiles(tmp, planned, spec);
    fs.rmSync(dir, { recursive: true, force: true }); // empty, checked above
    fs.renameSync(tmp, dir);
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    // A copy's error names its source as `path` and the file it was writing as `dest`.
    const e = error as NodeJS.ErrnoException & { dest?: string };
    if (isNoSpace(error))
      throw noSpaceError(
        String(e.dest ?? e.path ?? dir).replace(tmp, dir),
        error,
        'Nothing was left behind; make room and export again.',
      );
    throw error;
  }
}

function writeBundleFiles(dir: string, planned: PlannedBundle, spec: Spec): void {
  const { manifest } = planned;
  fs.mkdirSync(dir, { recursive: true });
  // The harness package only: the driver goes to the top, selfcheck.py belongs to the repository.
  copyTree(path.join(HARNESS_DIR, 'benchgrid_harness'), path.join(dir, 'harness', 'benchgrid_harness'));
  for (const runner of manifest.runners) {
    const from = spec.runners[runner];
    if (!from || !fs.existsSync(from))
      throw new UserError(
        `runner '${runner}' has no directory (${from ?? 'not declared'}); cannot put it in the bundle.`,
      );
    copyTree(from, path.join(dir, 'runners', runner));
  }
  fs.copyFileSync(path.join(HARNESS_DIR, 'driver.py'), path.join(dir, 'driver.py'));
  for (const [name, env] of Object.entries(manifest.environments)) {
    const head = `# Environment '${name}' of spec ${spec.name} (python: ${env.python}).\n# The cell processes need torch and torchvision at least; install these with pip into the interpreter given to driver.py.\n`;
    // pip reads its index options in a requirements file too: `pip install -r` there asks the same indexes.
    const lines = [...requirementsFileOptions(spec.environments[name]?.index ?? NO_INDEX), ...env.requirements];
    fs.writeFileSync(path.join(dir, env.file), head + lines.map((l) => `${l}\n`).join(''));
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
