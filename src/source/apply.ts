// A loaded spec with some tools installed from source, for one run: the tools keep their ids and cells
// (`run --tool-source`), or each becomes two tools, TOOL@base and TOOL@head, one per side of a change
// (bench-change). Each source runs in a layer over the tool's own environment. Pure: the spec given is
// not changed, a new one is returned.
import { UserError } from '../errors.ts';
import type { Environment, Spec, Tool } from '../spec/types.ts';
import { normalisePackage, packageOf, requirementName, versionedToolId } from '../spec/versions.ts';
import type { ResolvedSource } from '../spec/types.ts';

/** The sides of bench-change, as they appear in tool ids: TOOL@base, TOOL@head. */
export const SIDES = ['base', 'head'] as const;
export type Side = (typeof SIDES)[number];

/**
 * The declared tools a command-line name stands for, and their package: every tool whose package it is
 * (`torchlens`: tl_record, tl_bind, ... and a tool named torchlens), else the tool with that id.
 */
export function toolsNamed(spec: Spec, name: string, option: string): { ids: string[]; package: string } {
  const declared = Object.values(spec.tools).filter((t) => t.version === null);
  const pkgOf = (t: Tool) => packageOf(t, spec.runners);
  const ofPackage = declared.filter((t) => pkgOf(t) !== null && normalisePackage(pkgOf(t)!) === normalisePackage(name));
  const own = declared.find((t) => t.id === name);
  const matches = ofPackage.length > 0 ? ofPackage : own ? [own] : [];
  if (matches.length === 0) {
    const known = declared.filter((t) => pkgOf(t) !== null).map((t) => `${t.id} (${pkgOf(t)})`);
    throw new UserError(
      `${option}: ${spec.file} has no tool or package named '${name}'. Tools with a library to build: ${known.join(', ') || 'none'}.`,
    );
  }
  const pkg = pkgOf(matches[0]);
  if (pkg === null)
    throw new UserError(
      `${option}: tool '${name}' names no library (its adapter '${matches[0].adapter}' has none and it declares no \`package\`), so there is nothing to build from source.`,
    );
  for (const t of matches) {
    if (t.versions.length > 0)
      throw new UserError(
        `${option}: tool '${t.id}' declares \`versions\`; a source replaces a tool's one installed release. Use a spec (or a tool) without \`versions\`: history places a source build after its release on the version axis.`,
      );
    if (!spec.environments[t.environment])
      throw new UserError(
        `${option}: tool '${t.id}' runs in environment '${t.environment}', which ${spec.file} does not declare; a source is built as a layer over a declared environment.`,
      );
  }
  return { ids: matches.map((t) => t.id), package: pkg };
}

/** The id of the environment a source of `pkg` runs in over `base`: `main+torchlens-src-1a2b3c4d5e6f`. */
export function sourceEnvironmentId(base: string, pkg: string, src: ResolvedSource): string {
  return `${base}+${normalisePackage(pkg)}-src-${src.digest.slice(0, 12)}`;
}

/** Adds (once) the layer that installs `src` over the tool's environment; returns its id. */
function addSourceEnvironment(
  environments: Record<string, Environment>,
  baseId: string,
  pkg: string,
  src: ResolvedSource,
): string {
  const id = sourceEnvironmentId(baseId, pkg, src);
  if (environments[id]) return id;
  const base = environments[baseId];
  const name = normalisePackage(pkg);
  // The requirements name the digest, so the cache key (src/env/build.ts) is the source's.
  const line = `${pkg} @ source:${src.digest}`;
  environments[id] = {
    id,
    python: base.python,
    default: false,
    requirements: [...base.requirements.filter((r) => requirementName(r) !== name), line],
    layer: { base: baseId, requirements: [`${pkg} from ${src.text}`], source: { package: pkg, source: src } },
    // The source's dependencies and build backend come from where its base takes its packages.
    index: base.index,
  };
  return id;
}

/** One tool (or package) installed from source for a whole run. */
export interface ToolSource {
  tool: string;
  source: ResolvedSource;
}

/**
 * The spec with each named tool running its source instead of its pinned release (ids and cells
 * unchanged), and the source of each tool id.
 */
export function withToolSources(
  spec: Spec,
  sources: ToolSource[],
): { spec: Spec; byTool: Map<string, ResolvedSource> } {
  const tools = { ...spec.tools };
  const environments = { ...spec.environments };
  const byTool = new Map<string, ResolvedSource>();
  const namedBy = new Map<string, string>();
  for (const s of sources) {
    const { ids, package: pkg } = toolsNamed(spec, s.tool, `--tool-source ${s.tool}`);
    for (const id of ids) {
      if (namedBy.has(id))
        throw new UserError(
          `--tool-source: tool '${id}' is named twice (by '${namedBy.get(id)}' and '${s.tool}'); give one source per tool.`,
        );
      namedBy.set(id, s.tool);
      byTool.set(id, s.source);
      tools[id] = {
        ...tools[id],
        environment: addSourceEnvironment(environments, tools[id].environment, pkg, s.source),
      };
    }
  }
  return { spec: { ...spec, tools, environments }, byTool };
}

/** bench-change's two sides of one tool: a source each, or null for the release the spec pins. */
export type Sides = Record<Side, ResolvedSource | null>;

/**
 * The spec with each tool the name stands for split into TOOL@base and TOOL@head (as the version axis
 * splits a tool into its releases), each in its side's environment. Returns the new spec and the ids.
 */
export function withSides(
  spec: Spec,
  name: string,
  sides: Sides,
): { spec: Spec; tools: string[]; byTool: Map<string, ResolvedSource> } {
  const { ids, package: pkg } = toolsNamed(spec, name, '--tool');
  const reference = spec.groups.find((g) => g.reference !== null && ids.includes(g.reference));
  if (reference)
    throw new UserError(
      `--tool ${name}: '${reference.reference}' is the reference of group ${reference.id}, which every cell of the group is checked against; bench-change measures a tool against a fixed reference. Compare two runs with \`benchgrid compare\` instead.`,
    );
  const tools = { ...spec.tools };
  const environments = { ...spec.environments };
  const byTool = new Map<string, ResolvedSource>();
  for (const id of ids) {
    const t = tools[id];
    tools[id] = { ...t, versions: [...SIDES] };
    for (const side of SIDES) {
      const src = sides[side];
      const environment = src === null ? t.environment : addSourceEnvironment(environments, t.environment, pkg, src);
      const sideId = versionedToolId(id, side);
      if (src !== null) byTool.set(sideId, src);
      tools[sideId] = {
        ...t,
        id: sideId,
        label: `${t.label} (${side})`,
        package: pkg,
        version: side,
        versions: [],
        environment,
      };
    }
  }
  return { spec: { ...spec, tools, environments }, tools: ids, byTool };
}
