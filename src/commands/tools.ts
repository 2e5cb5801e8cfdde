// `benchgrid tools [SPEC]`: every adapter (built in, the spec's, and the runner folders of the project in the
// current directory), its library and installed releases, and the contracts it implements.
import path from 'node:path';
import { listEnvs } from '../env/list.ts';
import { listTools, type ToolListing } from '../tools/list.ts';
import { DEFAULT_WIDTH, terminalWidth, wrap } from '../util/width.ts';
import { loadDeclaredSpec } from '../spec/load.ts';

/** Options of `tools`. */
export interface ToolsOptions {
  json?: boolean;
}

/** Lists the adapters (with a spec: its own runners too, its pins and which tools it declares on them). */
export async function tools(specFile: string | undefined, opts: ToolsOptions): Promise<void> {
  const spec = specFile ? await loadDeclaredSpec(specFile) : null;
  const envDirs = spec
    ? new Set(listEnvs(Object.values(spec.environments)).flatMap((e) => e.builds.map((b) => path.basename(b.dir))))
    : null;
  const list = listTools(spec, envDirs);
  if (opts.json) {
    process.stdout.write(JSON.stringify({ spec: spec?.name ?? null, adapters: list }, null, 2) + '\n');
    return;
  }
  process.stdout.write(renderTools(list, spec !== null, terminalWidth(process.stdout)));
}

/** Where a runner comes from, in words; a folder of the user's is named, relative to the current directory. */
function origin(t: ToolListing): string {
  if (t.origin === 'builtin') return 'built in';
  if (t.origin === 'spec') return "the spec's own";
  const dir = path.relative(process.cwd(), t.dir) || '.';
  return `a folder of yours, ${dir.split(path.sep).join('/')}/, that no spec given here declares: declare it under runners: to use it`;
}

function version(t: ToolListing, withSpec: boolean): string {
  if (!t.library) return 'no library (plain torch)';
  const installed = Object.entries(t.installed).map(([env, v]) => `${v} in ${env}`);
  const pin = t.pinned ? `pinned ${t.pinned}` : withSpec && t.declared_as.length ? 'not pinned by the spec' : '';
  const where = installed.length
    ? installed.join(', ')
    : withSpec
      ? 'not installed (environment not built)'
      : 'not in a cached environment';
  return `library ${t.library}, ${[pin, installed.length ? `installed ${where}` : where].filter(Boolean).join('; ')}`;
}

/** The listing as text, grouped by runner. */
export function renderTools(list: ToolListing[], withSpec: boolean, width = DEFAULT_WIDTH): string {
  const lines: string[] = [];
  let runner = '';
  for (const t of list) {
    if (t.runner !== runner) lines.push(...(runner ? [''] : []), ...wrap(`Runner ${t.runner} (${origin(t)})`, width));
    runner = t.runner;
    const declared = withSpec
      ? t.declared_as.length
        ? `; the spec's tool${t.declared_as.length > 1 ? 's' : ''} ${t.declared_as.join(', ')}`
        : '; not declared in the spec'
      : '';
    lines.push(
      ...wrap(`${t.adapter}: ${version(t, withSpec)}${declared}`, width - 2).map((l, i) =>
        i === 0 ? `  ${l}` : `      ${l}`,
      ),
    );
    const only = t.builders ? ` (subjects built by ${t.builders.join(', ')} only)` : '';
    lines.push(
      ...wrap(`implements ${t.contracts.length}: ${t.contracts.join(', ')}${only}`, width - 4).map((l) => `    ${l}`),
    );
  }
  lines.push(
    '',
    ...wrap(
      'A spec uses an adapter by declaring a tool on it under tools: (the id defaults to the adapter). To add a tool of your own: docs/adding-a-tool.md, and `benchgrid init --tool NAME` writes the runner to start from.',
      width,
    ),
  );
  return lines.join('\n') + '\n';
}
