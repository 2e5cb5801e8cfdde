// Renders a plan as grids (one per group and subject: rows contracts, columns tools) with reason keys.
import { fitTable } from '../util/fit-table.ts';
import { DEFAULT_WIDTH, wrap } from '../util/width.ts';
import type { Plan } from './expand.ts';
import type { Spec } from '../spec/types.ts';
import { expandToolList } from '../spec/versions.ts';
import { expandSubjectList, isDeclared } from '../spec/subjects.ts';
import { forTerminal, mapStrings } from '../util/escape.ts';

/** The plan as it is printed by `benchgrid plan`, no line wider than `width`. */
export function renderPlan(
  rawSpec: Spec,
  plan: Plan,
  selected: (id: string) => boolean,
  color: boolean,
  width = DEFAULT_WIDTH,
): string {
  const lines: string[] = [];
  // Titles, labels and reasons through the terminal sink (ids cannot hold what it changes).
  const spec = mapStrings(rawSpec, forTerminal);
  const cells = mapStrings(
    plan.cells.filter((c) => selected(c.id)),
    forTerminal,
  );
  const byId = new Map(cells.map((c) => [c.id, c]));
  const green = (s: string) => (color ? `\x1b[32m${s}\x1b[39m` : s);
  const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[22m` : s);
  for (const g of spec.groups) {
    // A swept subject's points and a dtype axis's subjects each get their grid, as the planner expands them.
    for (const subject of expandSubjectList(spec.subjects, g.subjects)) {
      const mine = cells.filter((c) => c.group === g.id && c.subject === subject);
      if (mine.length === 0) continue;
      const tools = expandToolList(spec.tools, g.tools).filter((t) => mine.some((c) => c.tool === t));
      const contracts = g.contracts.filter((k) => mine.some((c) => c.contract === k));
      const keys = new Map<string, string>();
      const keyOf = (reason: string) => {
        if (!keys.has(reason))
          keys.set(
            reason,
            String.fromCharCode(97 + (keys.size % 26)) + (keys.size >= 26 ? String(Math.floor(keys.size / 26)) : ''),
          );
        return keys.get(reason)!;
      };
      const rows: string[][] = [];
      for (const contract of contracts) {
        rows.push([
          contract,
          ...tools.map((tool) => {
            const c = byId.get(`${g.id}/${contract}/${tool}/${subject}`);
            if (!c) return '';
            return c.status === 'planned' ? green('run') : dim(`(${keyOf(c.reason ?? '')})`);
          }),
        ]);
      }
      const planned = mine.filter((c) => c.status === 'planned').length;
      const label = spec.subjects[subject]?.label ?? subject;
      const name = isDeclared(spec.subjects[subject] ?? { axis: null, sweep: null }) ? label : `${label}, ${subject}`;
      lines.push(...wrap(`${g.id}: ${g.title} / ${name}: ${planned} of ${mine.length} cells run`, width));
      lines.push(...fitTable({ head: ['', ...tools], rows, color }, width));
      for (const [reason, key] of keys) lines.push(...hanging(`  (${key}) `, reason, width));
      lines.push('');
    }
  }
  const planned = cells.filter((c) => c.status === 'planned').length;
  lines.push(`${cells.length} cells: ${planned} planned, ${cells.length - planned} unsupported.`);
  return lines.join('\n') + '\n';
}

/** `prefix` then `text` wrapped to `width`, continuation lines indented under the text. */
export function hanging(prefix: string, text: string, width: number): string[] {
  const body = wrap(text, width - prefix.length);
  return body.map((l, i) => (i === 0 ? prefix : ' '.repeat(prefix.length)) + l);
}
