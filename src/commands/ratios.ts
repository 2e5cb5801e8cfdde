// `benchgrid ratios RESULTS... [--label L]...`: each tool's cost relative to `raw` within each run, side by side.
import { UserError } from '../errors.ts';
import { ratioTable, type RatioRun } from '../ratios/compute.ts';
import { renderRatioMarkdown, renderRatioTable } from '../ratios/render.ts';
import { terminalWidth } from '../util/width.ts';
import { loadResults } from '../results/load.ts';
import { writeAtomic } from '../results/write.ts';

/** Options of `ratios`, as commander passes them. */
export interface RatiosOptions {
  label?: string[];
  base?: string;
  tools?: string;
  tolerance?: string;
  format?: string;
  out?: string;
}

/** The tools `ratios` compares across machines when --tools is not given: hooks, nnsight, torchvision fx and torchlens's entry points. */
export const DEFAULT_TOOLS = ['hooks', 'nnsight', 'tv_fx', 'tl_*'];

/** Loads each results file (benchgrid's or a seed-layout file) and prints the side-by-side ratio table. */
export async function ratios(files: string[], opts: RatiosOptions): Promise<void> {
  const labels = opts.label ?? [];
  if (labels.length > files.length)
    throw new UserError(
      `--label: ${labels.length} labels for ${files.length} results file(s); give at most one per file, in the same order.`,
    );
  const format = opts.format ?? 'table';
  if (!['table', 'markdown', 'json'].includes(format))
    throw new UserError(`--format: expected one of table, markdown, json (got ${JSON.stringify(format)}).`);
  const tolerance = Number((opts.tolerance ?? '10').replace(/%$/, ''));
  if (!Number.isFinite(tolerance) || tolerance < 0 || tolerance >= 1000)
    throw new UserError(`--tolerance: expected a percentage such as 10 (got ${JSON.stringify(opts.tolerance)}).`);
  const tools =
    opts.tools === undefined
      ? DEFAULT_TOOLS
      : opts.tools === 'all'
        ? null
        : opts.tools
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean);
  const runs: RatioRun[] = files.map((file, i) => ({ label: labels[i] ?? file, results: loadResults(file) }));
  const table = ratioTable(runs, { base: opts.base ?? 'raw', tools, tolerance: tolerance / 100 });
  if (table.rows.length === 0)
    throw new UserError(
      `no tool has a ${table.base} cell to be compared with in ${files.join(', ')}; check --base and --tools.`,
    );
  const text =
    format === 'json'
      ? JSON.stringify(table, null, 2) + '\n'
      : format === 'markdown'
        ? renderRatioMarkdown(table)
        : renderRatioTable(table, terminalWidth(process.stdout));
  if (opts.out) {
    writeAtomic(opts.out, text);
    process.stderr.write(`benchgrid: wrote the ratio table to ${opts.out}\n`);
  } else {
    process.stdout.write(text);
  }
}
