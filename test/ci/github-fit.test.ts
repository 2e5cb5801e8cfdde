// Comments the action posts cut to GitHub's limit of 65,536 characters and still well-formed, saying where
// the rest is, with hostile inputs; and how open code fences and <details> blocks are read.
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, fitComment, openBlocks } from '../../src/ci/github.ts';
import { forMarkdown } from '../../src/util/escape.ts';
import { MARKER } from './github-fixtures.ts';

/** Whether every code fence `text` opens is closed, and <details> opens and closes as often. */
const wellFormed = (text: string) => {
  const open = openBlocks(text);
  return (
    open.fence === null &&
    open.details === 0 &&
    (text.match(/<details>/g) ?? []).length === (text.match(/<\/details>/g) ?? []).length
  );
};
const WHERE = "the whole comparison is in this run's job summary (https://github.com/o/tool/actions/runs/42).";
const NOTE =
  /\n\n\*\*This comment was cut here\*\* to fit GitHub's limit of 65,536 characters: the whole comparison is in this run's job summary \(https:\/\/github\.com\/o\/tool\/actions\/runs\/42\)\.\n$/;

/** The comment of the marker and these lines, cut to fit: it checks the cut is within the limit and well formed. */
function fittedWell(lines: string[]): string {
  const cut = fitComment([MARKER, ...lines].join('\n'), WHERE);
  expect(cut.length).toBeLessThanOrEqual(COMMENT_LIMIT);
  expect(wellFormed(cut)).toBe(true);
  return cut;
}

describe("fitComment: within GitHub's limit, well-formed, saying where the rest is", () => {
  it('leaves a comment within the limit as it is, to the character', () => {
    expect(fitComment('short', WHERE)).toBe('short');
    const exact = `${MARKER}\n${'x'.repeat(COMMENT_LIMIT - MARKER.length - 1)}`;
    expect(fitComment(exact, WHERE)).toBe(exact);
  });

  it('cuts a long table at a line break, with the note after a blank line', () => {
    const long = [MARKER, ...Array.from({ length: 4000 }, (_, i) => `| row ${i} | ${'x'.repeat(20)} |`)].join('\n');
    const cut = fitComment(long, WHERE);
    expect(cut.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(cut.length).toBeGreaterThan(COMMENT_LIMIT - 400);
    expect(cut.startsWith(`${MARKER}\n| row 0 |`)).toBe(true);
    expect(cut).toMatch(/\| row \d+ \| x{20} \|\n\n\*\*This comment was cut here\*\*/);
    expect(cut).toMatch(NOTE);
  });

  it('keeps a one-line input of 70,000 characters that escaping doubles within the limit (it once made a comment of 140,312)', () => {
    const escaped = forMarkdown('*'.repeat(70_000));
    expect(escaped.length).toBe(140_000);
    const cut = fitComment(`${MARKER}\n**slower**\n\n${escaped}\n`, WHERE);
    expect(cut.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(cut.length).toBeGreaterThan(COMMENT_LIMIT - 400);
    expect(cut.split('\n')[0]).toBe(MARKER);
    // Cut inside the line, never between an escape's backslash and what it escapes.
    expect(cut).toMatch(/^(\\\*)+\n\n\*\*This comment was cut here/m);
    expect(cut).toMatch(NOTE);
  });

  it('never leaves half an entity, half a tag, a dangling backslash or half a character where it cuts inside a line', () => {
    for (const unit of [forMarkdown('<'), forMarkdown('@a'), forMarkdown('\\'), '<sub>x</sub>', '😀']) {
      for (let shift = 0; shift < 12; shift++) {
        const line = `${'y'.repeat(shift)}${unit.repeat(Math.ceil(70_000 / unit.length))}`;
        const cut = fitComment(`${MARKER}\n${line}`, WHERE);
        expect(cut.length).toBeLessThanOrEqual(COMMENT_LIMIT);
        const kept = cut.split('\n')[1];
        expect(line.startsWith(kept)).toBe(true);
        expect(kept.length).toBeGreaterThan(COMMENT_LIMIT - 400);
        expect(/&#?\w*$|<[^>]*$|[\ud800-\udbff]$/.test(kept), `${unit} after ${shift}`).toBe(false);
        // An even run of backslashes at the end is whole escapes (`\\`); an odd one would escape the line break.
        expect(/\\*$/.exec(kept)![0].length % 2, `${unit} after ${shift}`).toBe(0);
      }
    }
  });

  it('closes a code fence it cuts into, whatever backticks the text holds, and the <details> blocks around it', () => {
    const rows = Array.from({ length: 6000 }, (_, i) => `line ${i} with \`\` two backticks and a \`code span\``);
    const cut = fittedWell([
      '<details><summary>log</summary>',
      '',
      '````text',
      '```',
      'still inside: three backticks do not close four',
      ...rows,
      '````',
      '',
      '</details>',
    ]);
    expect(cut).toMatch(
      /\nline \d+ with `` two backticks and a `code span`\n````\n\n<\/details>\n\n\*\*This comment was cut here/,
    );
  });

  it('closes nested <details> blocks it cuts into, and leaves closed ones as they are', () => {
    const table = Array.from({ length: 3000 }, (_, i) => `| cell ${i} | ${'z'.repeat(30)} |`);
    const cut = fittedWell([
      '<details><summary>done</summary>',
      '',
      'short',
      '',
      '</details>',
      '',
      '<details><summary>outer</summary>',
      '',
      '<details><summary>inner</summary>',
      '',
      ...table,
      '',
      '</details>',
      '</details>',
    ]);
    expect(openBlocks(cut.slice(0, cut.indexOf('\n\n</details>\n\n</details>')))).toEqual({ fence: null, details: 2 });
  });

  it('cuts to any limit it is given, counting the note and what closes the blocks', () => {
    const text = ['```', ...Array.from({ length: 100 }, (_, i) => `${i}`.repeat(10)), '```'].join('\n');
    for (const limit of [200, 333, 500]) {
      const cut = fitComment(text, 'see the log.', limit);
      expect(cut.length).toBeLessThanOrEqual(limit);
      expect(wellFormed(cut)).toBe(true);
    }
  });
});

describe('openBlocks', () => {
  it('reads fences as CommonMark does: a longer or same-length fence of the same character closes, a code span on one line opens nothing', () => {
    expect(openBlocks('```\ncode')).toEqual({ fence: '```', details: 0 });
    expect(openBlocks('````\n```\n')).toEqual({ fence: '````', details: 0 });
    expect(openBlocks('~~~\n```\n~~~~')).toEqual({ fence: null, details: 0 });
    expect(openBlocks('``` not `a fence`\ntext')).toEqual({ fence: null, details: 0 });
    expect(openBlocks('```\n<details>\n')).toEqual({ fence: '```', details: 0 });
    expect(openBlocks('<details><summary>a</summary>\n\n- x')).toEqual({ fence: null, details: 1 });
  });
});
