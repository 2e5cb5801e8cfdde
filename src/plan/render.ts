// Renders a plan as grids (one per group and subject: rows contracts, columns tools) with reason keys.
import Table from 'cli-table3';
import type { Plan } from './plan.ts';
import type { Spec } from '../spec/types.ts';
import { expandToolList } from '../spec/versions.ts';

/** The plan as it is printed by `benchgrid plan`. */
export function renderPlan(spec: Spec, plan: Plan, selected: (id: string) => boolean, color: boolean): string {
  const lines: string[] = [];
  const cells = plan.cells.filter((c) => selected(c.id));
  const byId = new Map(cells.map((c) => [c.id, c]));
  const green = (s: string) => (color ? `\x1b[32m${s}\x1b[39m` : s);
  const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[22m` : s);
  for (const g of spec.groups) {
    for (const subject of g.subjects) {
      const mine = cells.filter((c) => c.group === g.id && c.subject === subject);
      if (mine.length === 0) continue;
      const tools = expandToolList(spec.tools, g.tools).filter((t) => mine.some((c) => c.tool === t));
      const contracts = g.contracts.filter((k) => mine.some((c) => c.contract === k));
      const keys = new Map<string, string>();
      const keyOf = (reason: string) => {
        if (!keys.has(reason)) keys.set(reason, String.fromCharCode(97 + (keys.size % 26)) + (keys.size >= 26 ? String(Math.floor(keys.size / 26)) : ''));
        return keys.get(reason)!;
      };
      const table = new Table({ head: ['', ...tools], style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [] } });
      for (const contract of contracts) {
        table.push([contract, ...tools.map((tool) => {
          const c = byId.get(`${g.id}/${contract}/${tool}/${subject}`);
          if (!c) return '';
          return c.status === 'planned' ? green('run') : dim(`(${keyOf(c.reason ?? '')})`);
        })]);
      }
      const planned = mine.filter((c) => c.status === 'planned').length;
      lines.push(`${g.id}: ${g.title} / ${spec.subjects[subject]?.label ?? subject}: ${planned} of ${mine.length} cells run`);
      lines.push(table.toString());
      for (const [reason, key] of keys) lines.push(`  (${key}) ${reason}`);
      lines.push('');
    }
  }
  const planned = cells.filter((c) => c.status === 'planned').length;
  lines.push(`${cells.length} cells: ${planned} planned, ${cells.length - planned} unsupported.`);
  return lines.join('\n') + '\n';
}
