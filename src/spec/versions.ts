// The version axis: a tool that declares `versions` becomes one tool per release (TOOL@VERSION), each in an
// environment that pins that release over the tool's own environment. Pure; used by normalise and the planner.
import { readManifest } from './manifests.ts';
import type { Environment, Tool } from './types.ts';

/** Separates a tool id from the release it measures: `tl_record@2.35.4`. */
export const VERSION_SEP = '@';

/** The id of one release of a versioned tool. */
export function versionedToolId(tool: string, version: string): string {
  return `${tool}${VERSION_SEP}${version}`;
}

/** `tl_record@2.35.4` -> { tool: 'tl_record', version: '2.35.4' }; an unversioned id has version null. */
export function splitToolId(id: string): { tool: string; version: string | null } {
  const i = id.indexOf(VERSION_SEP);
  return i < 0 ? { tool: id, version: null } : { tool: id.slice(0, i), version: id.slice(i + 1) };
}

/** pip's name normalisation (PEP 503), so `Transformer_Lens` and `transformer-lens` are one package. */
export function normalisePackage(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The requirement's package name ('torchlens==2.36.1' -> 'torchlens'). */
export function requirementName(line: string): string {
  return normalisePackage(line.trim().split(/[\s<>=!~;[(@]/)[0]);
}

/** The requirements with `pkg` pinned to `version`: an existing line for it is replaced, else one is added. */
export function pinRequirement(requirements: string[], pkg: string, version: string): string[] {
  const pin = `${pkg}==${version}`;
  const name = normalisePackage(pkg);
  const out = requirements.map((r) => (requirementName(r) === name ? pin : r));
  return out.includes(pin) ? out : [...out, pin];
}

/** Id of the environment one release runs in: the tool's environment plus that pin. */
export function versionEnvironmentId(base: string, pkg: string, version: string): string {
  return `${base}+${normalisePackage(pkg)}-${version}`;
}

/** The package a tool's `versions` pin: its `package`, else its adapter's library in the runner manifest. */
export function packageOf(tool: Tool, runners: Record<string, string>): string | null {
  if (tool.package !== null) return tool.package;
  const dir = runners[tool.runner];
  const m = dir ? readManifest(dir) : undefined;
  return m && !(m instanceof Error) ? (m.adapters[tool.adapter]?.library ?? null) : null;
}

/**
 * Adds one tool per declared release, and the environment each runs in, to the resolved tools and
 * environments (the declared tool stays, for reasons and diagnostics that name it). A derived
 * environment is built as a layer over its base (src/env/layered.ts), so releases share one torch.
 */
export function expandVersions(
  tools: Record<string, Tool>,
  environments: Record<string, Environment>,
  runners: Record<string, string>,
): void {
  for (const t of Object.values(tools)) {
    if (t.versions.length === 0 || t.version !== null) continue;
    const pkg = packageOf(t, runners);
    if (pkg === null) continue; // reported by the versions rule
    for (const v of t.versions) {
      const id = versionedToolId(t.id, v);
      const base = environments[t.environment];
      // The release the tool's environment already pins runs there: no layer to build.
      const pinned = base?.requirements.some((r) => r.replace(/\s+/g, '') === `${pkg}==${v}`);
      const envId = pinned ? t.environment : versionEnvironmentId(t.environment, pkg, v);
      if (base && !environments[envId]) {
        environments[envId] = {
          id: envId,
          python: base.python,
          requirements: pinRequirement(base.requirements, pkg, v),
          default: false,
          layer: { base: base.id, requirements: [`${pkg}==${v}`] },
          // A release comes from where its tool's environment takes its packages.
          index: base.index,
        };
      }
      const label = t.label.includes('{version}') ? t.label : `${t.label} ${v}`;
      tools[id] = {
        ...t,
        id,
        label,
        package: pkg,
        version: v,
        versions: [],
        environment: base ? envId : t.environment,
      };
    }
  }
}

/** The tool ids a declared tool stands for in a group: its releases, or itself. */
export function toolVariants(tools: Record<string, Tool>, id: string): string[] {
  const t = tools[id];
  if (!t || t.versions.length === 0 || t.version !== null) return [id];
  return t.versions.map((v) => versionedToolId(id, v));
}

/** A group's tool list with every versioned tool replaced by its releases, in declared order. */
export function expandToolList(tools: Record<string, Tool>, ids: string[]): string[] {
  return ids.flatMap((id) => toolVariants(tools, id));
}
