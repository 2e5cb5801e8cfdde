// Replacing one generated section of a document (docs/performance.md), the campaigns' figures rendered
// again from their saved runs. Pure.

/** `doc` with the section that starts at the line `heading` (up to the next `## `) replaced by `section`, or with it appended. */
export function spliceSection(doc: string, heading: string, section: string[]): string {
  const start = doc.indexOf(heading);
  const text = section.join('\n');
  if (start < 0) return `${doc.trimEnd()}\n\n${text}\n`;
  const next = doc.indexOf('\n## ', start + heading.length);
  return `${doc.slice(0, start)}${text}\n${next < 0 ? '' : doc.slice(next + 1)}`;
}
