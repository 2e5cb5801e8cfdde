// `benchgrid validate <spec...>`: schema and semantic diagnostics; exit 0 valid, 2 invalid.
import { EXIT, ExitCode } from '../errors.ts';
import { formatDiagnostic } from '../spec/diagnostics.ts';
import { checkIndex } from '../env/index-check.ts';
import { hasErrors, loadSpec } from '../validate/load.ts';
import { annotation, inGitHubActions } from '../spec/annotations.ts';
import type { Diagnostic } from '../spec/diagnostics.ts';
import type { Plan } from '../plan/expand.ts';
import type { Spec } from '../spec/types.ts';
import type { ProbeReport } from '../executors/local/probe.ts';
import { writeWorkflowCommand } from '../util/terminal.ts';

/** Options of `validate`. */
export interface ValidateOptions {
  json?: boolean;
  /** Ask the package index whether every declared release of a versioned tool exists (needs the network). */
  checkIndex?: boolean;
  /** Build each subject once in its environment and check that every site is in its model. */
  probe?: boolean;
  /** With --probe: the interpreter to build subjects with, instead of the spec's environments. */
  python?: string;
  /** Hub weights not in the local cache are a warning (run --allow-downloads fetches them), not an error. */
  allowDownloads?: boolean;
}

/** Validates each spec; prints diagnostics (stderr, or JSON on stdout) and a summary line per spec. */
export async function validate(files: string[], opts: ValidateOptions): Promise<void> {
  const results = [];
  // What --probe checked, per spec file: said after the spec's verdict, so a probe is never silent.
  const probed = new Map<string, ProbeReport & { summary: string }>();
  for (const file of files) {
    const r = await loadSpec(file, undefined, { allowDownloads: opts.allowDownloads });
    if (opts.checkIndex && r.spec) r.diagnostics.push(...(await checkIndex(r.spec)));
    if (opts.probe && r.spec && r.plan && !hasErrors(r.diagnostics)) {
      const report = await probe(r.spec, r.plan, opts.python);
      r.diagnostics.push(...report.diagnostics);
      probed.set(r.file, report);
    }
    if (hasErrors(r.diagnostics)) r.plan = undefined;
    results.push(r);
  }
  const failed = results.some((r) => hasErrors(r.diagnostics));
  if (opts.json) {
    const out = results.map((r) => ({
      file: r.file,
      valid: !hasErrors(r.diagnostics),
      cells: r.plan?.cells.length ?? null,
      diagnostics: r.diagnostics,
      ...(probed.has(r.file) ? { probe: probeJson(probed.get(r.file)!) } : {}),
    }));
    process.stdout.write(JSON.stringify({ valid: !failed, specs: out }, null, 2) + '\n');
  } else {
    // A spec that extends a broken one has the base's errors too, at the same lines of the same file:
    // they are printed once, under the first spec that has them (one root cause, one error).
    const printed = new Map<string, string>();
    for (const r of results) {
      const fresh = r.diagnostics.filter((d) => !printed.has(diagnosticKey(d)));
      const repeatedFrom = [
        ...new Set(
          r.diagnostics.filter((d) => printed.has(diagnosticKey(d))).map((d) => printed.get(diagnosticKey(d))!),
        ),
      ];
      for (const d of fresh) printed.set(diagnosticKey(d), r.file);
      for (const d of fresh) process.stderr.write(formatDiagnostic(d) + '\n');
      if (repeatedFrom.length > 0)
        process.stderr.write(
          `${r.file}: ${r.diagnostics.length - fresh.length} diagnostic(s) the same as printed above for ${repeatedFrom.join(', ')} (a file it extends), not printed again.\n`,
        );
      // The runner reads workflow commands from stdout; benchgrid's own pass the guard that stops any other.
      if (inGitHubActions()) for (const d of fresh) writeWorkflowCommand(annotation(d));
      const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
      const warnings = r.diagnostics.length - errors;
      if (r.plan) {
        const planned = r.plan.cells.filter((c) => c.status === 'planned').length;
        const w = warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : '';
        process.stdout.write(
          `${r.file}: valid: ${r.plan.cells.length} cells (${planned} planned, ${r.plan.cells.length - planned} unsupported with reasons)${w}\n`,
        );
      } else {
        const folded = r.diagnostics.reduce((n, d) => n + (d.follow_ons?.length ?? 0), 0);
        const f = folded
          ? ` (+${folded} follow-on${folded === 1 ? '' : 's'} folded under ${errors === 1 ? 'it' : 'them'})`
          : '';
        process.stderr.write(
          `${r.file}: invalid: ${errors} error${errors === 1 ? '' : 's'}${f}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}\n`,
        );
      }
      const report = probed.get(r.file);
      if (report) process.stdout.write(`${r.file}: ${report.summary}\n`);
    }
  }
  if (failed) throw new ExitCode(EXIT.usage);
}

/** The subject probe of a valid spec: builds its environments when missing (as run does), then each subject once. */
async function probe(spec: Spec, plan: Plan, python: string | undefined): Promise<ProbeReport & { summary: string }> {
  const { interpreters } = await import('../env/python.ts');
  const { probeSpec, probeSummary } = await import('../executors/local/probe.ts');
  const log = (s: string) => process.stderr.write(`benchgrid: ${s}\n`);
  const planned = plan.cells.filter((c) => c.status === 'planned');
  const { pythons } = await interpreters(spec, new Set(planned.map((c) => c.environment)), python, log);
  const report = await probeSpec(spec, plan, () => true, pythons, log);
  return { ...report, summary: probeSummary(report) };
}

/** The probe's findings as JSON: each subject built, and each site found and called. */
function probeJson(report: ProbeReport & { summary: string }) {
  return {
    summary: report.summary,
    subjects: report.subjects.map((s) => ({
      id: s.id,
      environment: s.env,
      built: s.built,
      modules: s.modules,
      sites: s.sites.map((x) => ({ name: x.name, path: x.path, found: x.found, called: x.called })),
    })),
  };
}

/** The identity of a diagnostic across specs: the same problem at the same place of the same file. */
function diagnosticKey(d: Diagnostic): string {
  return `${d.file}\u0000${d.line}\u0000${d.col}\u0000${d.code}\u0000${d.message}`;
}
