// The markdown rendering of a comparison, ready to paste as a pull-request comment.
import type { CellComparison, Comparison } from './model.ts';
import { MARKDOWN_MARKER } from './view.ts';
import { MARKDOWN } from '../util/escape.ts';
import * as fmt from './format.ts';

// Every value from a results file goes through the markdown sink (src/util/escape.ts): a code span for
// ids, file names and versions, escaped text for the rest. The lines below are benchgrid's own words.
const code = MARKDOWN.code;
const cell = MARKDOWN.text;

/** The comparison as GitHub-flavoured markdown. */
export function renderMarkdown(c: Comparison, hidden = 0): string {
  const out: string[] = [];
  out.push(MARKDOWN_MARKER, `### benchgrid compare: ${fmt.headline(c)}`, '');
  if (hidden > 0) out.push(fmt.onlyChangedLine(c.cells.length, hidden), '');
  out.push(
    `**before** ${fmt.describeRun(c.before, MARKDOWN)}  `,
    `**after** ${fmt.describeRun(c.after, MARKDOWN)}`,
    '',
  );
  out.push(...environmentSection(c));
  out.push(`Noise threshold: ${c.noise.map((n) => fmt.noiseLine(n, MARKDOWN)).join('; ')}.`, '');
  // The sections joined in an array, not pushed as arguments: one of a big run's may hold thousands of lines.
  return [
    ...out,
    ...toolsSection(c),
    ...cellsSection(c),
    ...changesSection(c),
    ...fmt.onlyInLines(c, MARKDOWN).flatMap((l) => [l, '']),
    ...failingSection(c),
  ].join('\n');
}

/** The environment's differences: a warning when any blocks, folded notes when none does. */
function environmentSection(c: Comparison): string[] {
  const out: string[] = [];
  const diffs = c.environment.differences;
  if (c.environment.blocking > 0) {
    out.push(
      '> [!WARNING]',
      `> **Environment differs** (${c.environment.blocking} blocking): these timings come from different environments.`,
      '>',
    );
    for (const line of fmt.envLines(diffs, MARKDOWN)) out.push(`> - ${line}`);
    out.push('');
  } else if (diffs.length > 0) {
    out.push('<details><summary>Environment notes (nothing blocking)</summary>', '');
    for (const line of fmt.envLines(diffs, MARKDOWN)) out.push(`- ${line}`);
    out.push('', '</details>', '');
  } else {
    out.push('Environment: no differences recorded.', '');
  }
  return out;
}

/** The table of the cells measured on both sides, its reason keys and notes. */
function cellsSection(c: Comparison): string[] {
  const out: string[] = [];
  const both = c.cells.filter((x) => x.before && x.after);
  const keys = fmt.reasonKeys(both);
  const row = (x: CellComparison) => {
    const s = x.speed;
    const text =
      s.label === 'unavailable'
        ? `unavailable (${keys.get(s.why)})`
        : s.label === 'within_noise'
          ? fmt.label(s)
          : `**${fmt.label(s)}**`;
    return `| ${code(x.id)} | ${fmt.sideTime(x.before, s.before_ms)} | ${fmt.sideTime(x.after, s.after_ms)} | ${fmt.change(s.ratio)} | ${fmt.interval(s)} | ${fmt.rule(s)} | ${fmt.other(s)} | ${fmt.pValue(s.mann_whitney?.p)} | ${text} |`;
  };
  const head = [
    '| cell | before | after | change | interval | rule | other | MW p | label |',
    '| --- | ---: | ---: | ---: | --- | --- | --- | ---: | --- |',
  ];
  // Slower and faster cells stay open; the rest (within noise, unavailable) fold under <details>.
  const open = both.filter((x) => x.speed.label === 'slower' || x.speed.label === 'faster');
  const folded = both.filter((x) => !open.includes(x));
  if (open.length > 0) out.push(...head, ...open.map(row), '');
  if (folded.length > 0) {
    const n = (l: string) => folded.filter((x) => x.speed.label === l).length;
    out.push(
      `<details><summary>${folded.length} cells without a speed change (${n('within_noise')} within noise, ${n('unavailable')} unavailable)</summary>`,
      '',
      ...head,
      ...folded.map(row),
      '',
      '</details>',
      '',
    );
  }
  for (const [why, key] of keys) out.push(`- (${key}) ${cell(why)}`);
  if (keys.size > 0) out.push('');
  if (c.summary.range_rule > 0) out.push(fmt.RANGE_NOTE, '');
  if (both.length > 0)
    out.push(
      `<sub>interval: 95% hierarchical bootstrap CI of after/before, as a change; ${fmt.MODE_NOTE} MW p: Mann-Whitney U on raw samples (reported, not used for the label). Rule: docs/compare.md.</sub>`,
      '',
    );
  return out;
}

/** The cells changed other than in speed: marked ones, status changes, exactness changes. */
function changesSection(c: Comparison): string[] {
  // A list under its heading, a bullet a cell; a list without cells is left out.
  const list = (heading: string[], items: string[]) =>
    items.length > 0 ? [...heading, ...items.map((l) => `- ${l}`), ''] : [];
  const marked = fmt.annotatedLines(c, MARKDOWN);
  const changed = fmt.statusChangeLines(c, '→', MARKDOWN);
  const exact = fmt.exactnessChangeLines(c, '→', ' (**worse**: speed label withheld)', MARKDOWN);
  return [
    ...list(
      [`#### Marked cells (${marked.length})`, '', 'Work differs from the contract, another torch, or a note:', ''],
      marked,
    ),
    ...list([`#### Status changes (${changed.length})`, ''], changed),
    ...list([`#### Exactness changes (${exact.length})`, ''], exact),
  ];
}

/** What --fail-on-slower found, cells then tools; nothing without it. */
function failingSection(c: Comparison): string[] {
  if (!c.summary.failing) return [];
  const out: string[] = [];
  const f = c.summary.failing;
  out.push(
    f.length === 0
      ? `\`--fail-on-slower ${fmt.pct(c.settings.fail_on_slower!)}\`: no cell is significantly slower by more than that.`
      : `\`--fail-on-slower ${fmt.pct(c.settings.fail_on_slower!)}\`: **${f.length} cell(s) significantly slower by more than that**: ${f.map(code).join(', ')}`,
    '',
  );
  const ft = c.summary.failing_tools ?? [];
  if (ft.length > 0)
    out.push(
      `\`--fail-on-slower ${fmt.pct(c.settings.fail_on_slower!)}\`: **${ft.length} tool(s) slower as a whole by more than that** (interval above it): ${ft.map(cell).join(', ')}`,
      '',
    );
  return out;
}

/** The tools table and its note, then the heading of the cells; nothing when no tool has a verdict. */
function toolsSection(c: Comparison): string[] {
  const t = fmt.toolTable(
    c.tools ?? [],
    (l, text) => (l === 'slower' || l === 'faster' ? `**${text}**` : text),
    MARKDOWN,
  );
  if (t.rows.length === 0) return [];
  return [
    '#### Tools, each over its cells',
    '',
    `| ${t.head.join(' | ')} |`,
    `| ${t.aligns.map((a) => (a === 'right' ? '---:' : '---')).join(' | ')} |`,
    ...t.rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `<sub>${fmt.TOOLS_NOTE}</sub>`,
    '',
    '#### Cells',
    '',
  ];
}
