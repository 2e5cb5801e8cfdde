// What a sink's output may not hold when a file put hostile text in it (test/security/sinks.test.ts,
// the fuzz suite): shared checks, each naming what was rendered when it fails.
import { expect } from 'vitest';
import { noWorkflowCommands, visible } from '../../src/util/terminal.ts';

/**
 * A terminal rendering, as the renderer made it and as the CLI writes it in a GitHub Actions job (its
 * guard). The renderer shows a value's line break as `\u000a`, so the value never starts a line of its
 * own; a line that wrapping starts with `::` is the guard's to stop, and it does.
 */
export function checkTerminal(text: string, what: string): void {
  expect(text, what).not.toMatch(/\n\s*::warning file=a\.yaml::FORGED/);
  expect(text, what).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
  const logged = noWorkflowCommands(visible(text));
  expect(logged, what).not.toMatch(/(^|\n)\s*::|##\[/);
}

export function checkMarkdown(text: string, what: string): void {
  // A value never ends its line, opens a comment, an element, an image or a link, or mentions anyone
  // (inside a code span, which is literal, it may say all that).
  const outsideCode = withoutCode(text);
  expect(outsideCode, what).not.toMatch(/<!-- HIDE|<img|<script|!\[i\]\(https|\[l\]\(https|@octocat/);
  expect(
    text.split('\n').filter((l) => /^\s*::/.test(l)),
    what,
  ).toEqual([]);
  expect(text, what).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
}

export function checkHtml(text: string, what: string): void {
  expect(text, what).not.toMatch(
    /<script>alert|<img src=https|<!-- HIDE|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/,
  );
  expect(text.match(/<script[^>]*>/g)?.length ?? 0, what).toBeLessThanOrEqual(3);
}

/** Markdown without its fenced blocks and code spans, whose content is literal. */
function withoutCode(text: string): string {
  let fence: string | null = null;
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const open = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && open) fence = open;
    else if (fence !== null && open && open[0] === fence[0] && open.length >= fence.length) fence = null;
    else if (fence === null) kept.push(line.replace(/(`+)(?:(?!\1).)+?\1/g, ''));
  }
  return kept.join('\n');
}
