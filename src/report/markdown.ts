// The markdown results page: the spec's page rows in the seed layout's words, an appendix, how it was measured. Pure.
import { cellAnnotations } from '../results/annotations.ts';
import { cellRange, exactnessCell, firstLine, mdCell } from './format.ts';
import { howMeasured } from './measured.ts';
import { forMarkdownCode, MARKDOWN } from '../util/escape.ts';
import { resolvePage, type ReportInput } from './page.ts';
import { growthFamilies } from './growth.ts';
import { growthMarkdown } from './growth-text.ts';
import { showsRatios, TAX_HEADINGS, taxRows, TAX_SENTENCE, unpairedSentence } from './pairing-parts.ts';

/** The results page as `benchgrid report --format markdown` prints it. */
export function renderMarkdown(input: ReportInput): string {
  const { results } = input;
  const page = resolvePage(input);
  const out: string[] = [];
  // Every value from the spec or the results goes through the markdown sink (src/util/escape.ts).
  out.push(`# ${mdCell(input.spec?.title ?? results.spec?.title ?? results.spec?.name ?? 'benchgrid results')}`, '');
  if (input.spec?.description) out.push(mdCell(input.spec.description), '');
  const ratios = showsRatios(results);
  for (const section of page.sections) {
    out.push(`## ${mdCell(section.title)}`, '');
    const first = page.fromSpec ? 'Workload' : 'Contract';
    // A seed-layout file keeps its own page layout, row for row; every other file adds the ratio to raw and
    // the exactness against the group's reference, so a page says both how fast and whether it is the same result.
    out.push(
      ratios
        ? `| ${first} | Tool | Median (min to max) | x raw (95% CI) | Import tax (95% CI) | Exactness |`
        : `| ${first} | Tool | Median (min to max) |`,
      ratios ? '| --- | --- | --- | --- | --- | --- |' : '| --- | --- | --- |',
    );
    for (const e of section.entries)
      out.push(
        ratios
          ? `${e.text} ${mdCell(e.ratioText)} | ${mdCell(e.taxText)} | ${mdCell(exactnessCell(e.result))} |`
          : e.text,
      );
    out.push('');
    const unpaired = ratios ? unpairedSentence(section.entries) : '';
    if (unpaired) out.push(mdCell(unpaired), '');
  }
  out.push(...growthMarkdown(growthFamilies(results)));
  out.push(...taxSection(input));
  if (page.fromSpec) {
    out.push('## Cells not on the page', '');
    if (page.appendix.length === 0) {
      out.push('Every cell of the results is on the page.', '');
    } else {
      out.push('Every measured cell the page above does not show, so that nothing measured is hidden.', '');
      out.push('| Cell | Status | Median (min to max) | Exactness | Reason |');
      out.push('| --- | --- | --- | --- | --- |');
      for (const c of page.appendix) {
        const why =
          c.status === 'ok' ? cellAnnotations(c, results).join('; ') : firstLine(c.reason ?? c.error?.message);
        // The same exactness words as the page's rows: a close or mismatched decoder output says by how much and
        // what a reader sees of it (top-1 agreement, TV distance, where generated tokens part), not only its verdict.
        const cells = [forMarkdownCode(c.id), ...[c.status, cellRange(c) ?? '', exactnessCell(c), why].map(mdCell)];
        out.push(`| ${cells.join(' | ')} |`);
      }
      out.push('');
    }
  }
  const how = howMeasured(results, MARKDOWN);
  if (how.length) {
    out.push('## How it was measured', '');
    for (const p of how) out.push(p, '');
  }
  return out.join('\n');
}

/** The import tax table, per tool and subject; nothing for files without paired timing. */
function taxSection({ results }: ReportInput): string[] {
  const rows = taxRows(results);
  if (rows.length === 0) return [];
  return [
    '## Import tax',
    '',
    TAX_SENTENCE,
    '',
    `| ${TAX_HEADINGS.join(' | ')} |`,
    `|${' --- |'.repeat(TAX_HEADINGS.length)}`,
    ...rows.map((r) => `| ${r.text.map(mdCell).join(' | ')} |`),
    '',
  ];
}
