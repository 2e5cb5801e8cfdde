// The command line's sources, parsed: paths, git revisions (with and without a repository), pinned, and
// every malformed value refused with what to write instead.
import { describe, expect, it } from 'vitest';
import { MAX_SOURCE_CHARS, parseSource, parseToolSource, sourceText } from '../../src/source/parse.ts';

describe('parsing --tool-source and the sides of bench-change', () => {
  it('reads a directory, a revision of the current repository, a revision of a named repository, and pinned', () => {
    expect(parseToolSource('torchlens=../torchlens')).toEqual({
      tool: 'torchlens',
      source: { kind: 'tree', path: '../torchlens' },
    });
    expect(parseToolSource('tl_record=git:main')).toEqual({
      tool: 'tl_record',
      source: { kind: 'git', repo: null, rev: 'main' },
    });
    expect(parseSource('git:../my@repo@v2.36.1', '--base', true)).toEqual({
      kind: 'git',
      repo: '../my@repo',
      rev: 'v2.36.1',
    });
    // A reflog selector stays a revision.
    expect(parseSource('git:HEAD@{1}', '--base', true)).toEqual({ kind: 'git', repo: null, rev: 'HEAD@{1}' });
    expect(parseSource('pinned', '--base', true)).toEqual({ kind: 'pinned' });
    expect(sourceText(parseSource('git:../tl@main', '--head', true))).toBe('git:../tl@main');
  });

  it.each([
    ['torchlens', /expected TOOL=SOURCE/],
    ['=../x', /'' is not a tool or package name/],
    ['tl/x=../x', /'tl\/x' is not a tool or package name/],
    ['torchlens=', /the source is empty/],
    ['torchlens=git:', /git: needs a revision/],
    ['torchlens=git:--upload-pack=evil', /starts with '-'/],
    ['torchlens=git:../repo@-x', /starts with '-'/],
    ['torchlens=pinned', /'pinned' \(the spec's own release\) is a side of bench-change/],
    ['torchlens=a\nb', /holds a control character/],
    [`torchlens=${'x'.repeat(MAX_SOURCE_CHARS + 1)}`, /at most 4096 are read/],
  ])('refuses --tool-source %j', (value, message) => {
    expect(() => parseToolSource(value)).toThrow(message);
  });
});
