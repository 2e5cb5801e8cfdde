// What every bench figure starts from: the resnet18_cpu spec (or, while some of its adapters are still
// missing, the subset the built-in runner implements), written out with the protocol a figure needs,
// and the interpreter of its `main` environment.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { loadMerged } from '../src/spec/extends.ts';
import { loadSpec } from '../src/validate/load.ts';
import { normalise } from '../src/spec/normalise.ts';
import type { SpecData } from '../src/spec/data.ts';
import { readManifest } from '../src/spec/manifests.ts';
import { BUILTIN_RUNNERS, REPO_ROOT } from '../src/repository.ts';
import { resolveEnv } from '../src/env/build.ts';
import type { ValidSpec } from '../src/commands/load-spec.ts';

/** The spec the bench measures. */
export const SPEC_FILE = path.join(REPO_ROOT, 'specs/resnet18_cpu.yaml');

/** The subset used while resnet18_cpu does not validate (the benchmark's brief names it). */
export const SUBSET_TOOLS = ['raw', 'hooks', 'tv_fx', 'reference'];

/** A spec written for the bench, and whether it is the whole matrix or a subset. */
export interface DerivedSpec {
  file: string;
  loaded: ValidSpec;
  /** null: the whole matrix; otherwise why and which tools were kept. */
  subset: { tools: string[]; why: string } | null;
}

/** The merged (extends resolved) data of resnet18_cpu.yaml. */
export async function mergedData(): Promise<Record<string, any>> {
  const merged = await loadMerged(SPEC_FILE);
  if (!merged.doc) throw new Error(`cannot read ${SPEC_FILE}: ${merged.diagnostics.map((d) => d.message).join('; ')}`);
  const data = structuredClone(merged.doc.data) as Record<string, any>;
  delete data.extends;
  return data;
}

/** The data restricted to `tools`: groups, reasons and tools that name others are dropped; so is the page. */
function restrict(data: Record<string, any>, tools: string[]): Record<string, any> {
  const keep = new Set(tools);
  const out = structuredClone(data);
  out.tools = Object.fromEntries(Object.entries(out.tools as Record<string, unknown>).filter(([id]) => keep.has(id)));
  for (const group of Object.values(out.groups as Record<string, any>)) {
    if (Array.isArray(group.tools)) group.tools = group.tools.filter((t: string) => keep.has(t));
    if (group.cells) {
      group.cells = Object.fromEntries(
        Object.entries(group.cells as Record<string, string[]>)
          .map(([c, ts]) => [c, ts.filter((t) => keep.has(t))] as const)
          .filter(([, ts]) => ts.length > 0),
      );
    }
    if (Array.isArray(group.unsupported)) {
      group.unsupported = group.unsupported
        .map((r: any) => (Array.isArray(r.tools) ? { ...r, tools: r.tools.filter((t: string) => keep.has(t)) } : r))
        .filter((r: any) => !Array.isArray(r.tools) || r.tools.length > 0);
    }
  }
  delete out.page;
  return out;
}

/** Writes `data` with `protocol` merged over its own, and loads it; null when it does not validate. */
async function writeAndLoad(
  data: Record<string, any>,
  protocol: Record<string, unknown>,
  dir: string,
  name: string,
): Promise<{ file: string; loaded: ValidSpec } | { errors: string[] }> {
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(file, stringify({ ...data, protocol: { ...data.protocol, ...protocol } }));
  const loaded = await loadSpec(file);
  if (!loaded.spec) return { errors: loaded.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message) };
  return { file, loaded: loaded as ValidSpec };
}

/**
 * resnet18_cpu with `protocol` merged over its own. When the whole spec does not validate (peer adapters
 * not yet in the runner's manifest), the tools the built-in runner declares are kept; failing that, the
 * brief's subset (raw, hooks, tv_fx, and the reference of group B).
 */
export async function deriveSpec(protocol: Record<string, unknown>, name: string): Promise<DerivedSpec> {
  const data = await mergedData();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-bench-spec-'));
  const whole = await writeAndLoad(data, protocol, dir, name);
  if ('loaded' in whole) return { ...whole, subset: null };
  const manifest = readManifest(path.join(BUILTIN_RUNNERS, 'torch'));
  const declared = manifest instanceof Error ? [] : Object.keys(manifest.adapters);
  const spec = normalise(data as SpecData, SPEC_FILE, [SPEC_FILE], new Map());
  const why = `specs/resnet18_cpu.yaml does not validate yet (${whole.errors.length} errors, first: ${whole.errors[0]})`;
  for (const tools of [
    Object.values(spec.tools)
      .filter((t) => declared.includes(t.adapter))
      .map((t) => t.id),
    SUBSET_TOOLS,
  ]) {
    const part = await writeAndLoad(restrict(data, tools), protocol, dir, name);
    if ('loaded' in part) return { ...part, subset: { tools, why } };
  }
  throw new Error(`${why}, and neither subset validates either`);
}

/** The interpreter of resnet18_cpu's `main` environment (or `override`); throws with what to do when unbuilt. */
export async function benchPython(override?: string): Promise<string> {
  if (override) return override;
  const spec = normalise((await mergedData()) as SpecData, SPEC_FILE, [SPEC_FILE], new Map());
  const env = await resolveEnv(spec.environments.main);
  if (!env.built)
    throw new Error(
      `the environment is not built: run \`node bin/benchgrid.js env build specs/resnet18_cpu.yaml\` (or pass --python PATH)`,
    );
  return env.python;
}
