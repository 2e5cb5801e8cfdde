// `benchgrid validate <spec...>`: schema and semantic diagnostics; exit 0 valid, 2 invalid.
import { EXIT, ExitCode } from '../errors.ts';
import { formatDiagnostic } from '../spec/diagnostics.ts';
import { checkIndex } from '../spec/index-check.ts';
import { hasErrors, loadSpec } from '../spec/load.ts';

/** Options of `validate`. */
export interface ValidateOptions {
  json?: boolean;
  /** Ask the package index whether every declared release of a versioned tool exists (needs the network). */
  checkIndex?: boolean;
}

/** Validates each spec; prints diagnostics (stderr, or JSON on stdout) and a summary line per spec. */
export async function validate(files: string[], opts: ValidateOptions): Promise<void> {
  const results = [];
  for (const file of files) {
    const r = await loadSpec(file);
    if (opts.checkIndex && r.spec) {
      r.diagnostics.push(...(await checkIndex(r.spec)));
      if (hasErrors(r.diagnostics)) r.plan = undefined;
    }
    results.push(r);
  }
  const failed = results.some((r) => hasErrors(r.diagnostics));
  if (opts.json) {
    const out = results.map((r) => ({ file: r.file, valid: !hasErrors(r.diagnostics), cells: r.plan?.cells.length ?? null, diagnostics: r.diagnostics }));
    process.stdout.write(JSON.stringify({ valid: !failed, specs: out }, null, 2) + '\n');
  } else {
    for (const r of results) {
      for (const d of r.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
      const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
      const warnings = r.diagnostics.length - errors;
      if (r.plan) {
        const planned = r.plan.cells.filter((c) => c.status === 'planned').length;
        const w = warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : '';
        process.stdout.write(`${r.file}: valid: ${r.plan.cells.length} cells (${planned} planned, ${r.plan.cells.length - planned} unsupported with reasons)${w}\n`);
      } else {
        process.stderr.write(`${r.file}: invalid: ${errors} error${errors === 1 ? '' : 's'}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}\n`);
      }
    }
  }
  if (failed) throw new ExitCode(EXIT.usage);
}
