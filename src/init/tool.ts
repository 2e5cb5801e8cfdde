// The runner skeleton `benchgrid init --tool NAME` writes: a manifest, a package and one adapter that runs
// as written (it reads the site with a forward hook, so its first cell is `bit` against the reference),
// laid out as docs/adding-a-tool.md's worked example. Pure: files as text.
import { UserError } from '../errors.ts';

/** What the skeleton is made from. */
export interface ToolSkeletonOptions {
  /** The tool's id: the runner, the adapter and the package are named after it. */
  name: string;
  /** The PyPI distribution the adapter imports, when there is one (its version is recorded, its absence is `unsupported`). */
  library: string | null;
}

/** Lower-case, starting with a letter: a Python package name and a benchgrid id at once. */
export const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** The skeleton's files, relative to the runner directory. */
export function toolSkeleton(o: ToolSkeletonOptions): Record<string, string> {
  if (!TOOL_NAME.test(o.name))
    throw new UserError(
      `--tool: lower-case letters, digits and '_', starting with a letter, at most 64 (got ${JSON.stringify(o.name)}); it names the runner, its Python package and the adapter.`,
    );
  if (o.library !== null && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(o.library))
    throw new UserError(`--library: a PyPI distribution name (got ${JSON.stringify(o.library)}).`);
  const pkg = `${o.name}_adapters`;
  const manifest = {
    manifest: 1,
    runner: o.name,
    protocol: 1,
    adapters: {
      [o.name]: {
        module: `${pkg}.${o.name}_`,
        library: o.library,
        comparable: true,
        contracts: ['single_module_output'],
      },
    },
  };
  return {
    'manifest.json': JSON.stringify(manifest, null, 2) + '\n',
    [`${pkg}/__init__.py`]: `"""Adapters of the ${o.name} runner (docs/adding-a-tool.md)."""\n`,
    [`${pkg}/${o.name}_.py`]: adapter(o),
  };
}

function adapter(o: ToolSkeletonOptions): string {
  const lib = o.library ? o.library.replace(/[-.]/g, '_') : null;
  return `"""${o.name}: <one line on what the tool is and which of its entry points this adapter measures>.

Say where the idiom comes from (the library's README, a tutorial, its own tests), so that someone who knows
the library can check the adapter does what its users do. docs/adding-a-tool.md walks through a real one.

Written by \`benchgrid init --tool ${o.name}\`: single_module_output below reads the site with a plain forward
hook so that the runner runs as written; replace its body with the library's way of doing it.
"""
${lib ? `\n# The library itself, imported at the top: if it is not installed, the harness records the cell as\n# \`unsupported\` with the import error (the manifest's "library" names it), not as an error. Import it by\n# its module's name where that differs from the distribution's (scikit-learn is sklearn).\nimport ${lib}  # noqa: F401 - replace with what the adapter uses\n` : ''}

def single_module_output(ctx):
    """The site's output from one whole forward of the model (docs/contracts.md).

    Everything before \`def run()\` is set-up, not timed: build the library's objects here. \`run\` is
    timed; it must do the contract's work and return its result, compared with the reference's.
    """
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        kept = []
        handle = site.register_forward_hook(lambda _module, _args, output: kept.append(output))
        try:
            model(x)
        finally:
            handle.remove()
        return kept[0]

    return run


# More contracts: one function per contract kind, named after it, each listed under "contracts" in
# manifest.json; a contract the tool cannot do gets a reason in the spec instead (docs/adding-a-tool.md).
`;
}

/** The lines to add to a spec so that it measures the tool; `runnerPath` is relative to the spec. */
export function specSnippet(name: string, runnerPath: string, library: string | null): string {
  const env = library
    ? `\n  # ${library} must be installed where the tool runs: add it to the environment's requirements, or give\n  # the tool versions: ["X.Y.Z"] to install that release in a small layer over the environment.`
    : '';
  return `runners:
  ${name}: ${runnerPath}
tools:${env}
  ${name}: { label: "${name}${library ? ' {version}' : ''}", runner: ${name} }
groups:
  A:
    tools: [..., ${name}]   # and a reason under unsupported: for each of the group's contracts it does not implement
`;
}
