// Issue 41, third round: three editing mistakes a new user makes, each one error at the line to fix,
// saying what to do, instead of the YAML parser's words, six schema errors, or an error at a correct use.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';
import { findMisindented } from '../../src/spec/indentation.ts';
import type { Diagnostic } from '../../src/spec/diagnostics.ts';

const tiny = fs.readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8');

/** A copy of tiny.yaml with one edit, in a temporary directory. */
function edited(name: string, from: string, to: string): string {
  const text = tiny.replace(from, to);
  expect(text).not.toBe(tiny);
  return write(tmpdir(), `${name}.yaml`, text);
}

const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

/** `validate --json FILE`: exit code and its error-level diagnostics, and the human lines. */
async function validate(file: string): Promise<{ code: number; errors: Diagnostic[]; lines: string[] }> {
  const json = await cli(['validate', file, '--json']);
  const human = await cli(['validate', file]);
  const errors = (JSON.parse(json.stdout).specs[0].diagnostics as Diagnostic[]).filter((d) => d.severity === 'error');
  return { code: json.code, errors, lines: human.stderr.split('\n').filter((l) => /^\S+:\d+:\d+ /.test(l)) };
}

/** `validate` of FILE, which must refuse it (exit 2) with exactly one error: the errors and the human lines. */
async function refusedWithOneError(file: string): Promise<{ errors: Diagnostic[]; lines: string[] }> {
  const { code, errors, lines } = await validate(file);
  expect(code).toBe(2);
  expect(errors).toHaveLength(1);
  return { errors, lines };
}

/**
 * `validate` of tiny.yaml with the edit `[from, to]`, written as `name`: refused with one error, as `expected`
 * (its code, position, words), and one human line; the error and that line.
 */
async function oneErrorAt(name: string, [from, to]: [string, string], expected: Partial<Diagnostic>) {
  const { errors, lines } = await refusedWithOneError(edited(name, from, to));
  expect(errors[0]).toMatchObject(expected);
  expect(lines).toHaveLength(1);
  return { error: errors[0], line: lines[0] };
}

describe('one editing mistake, one error at its line, saying what to do', () => {
  it("a key indented one space short: the line out of line and the column of its siblings, not the parser's text", async () => {
    const file = edited('indent', '    label: ResNet-18\n', '   label: ResNet-18\n');
    const { errors, lines } = await refusedWithOneError(file);
    expect(errors[0]).toMatchObject({ code: 'bad-indentation', line: lineOf(tiny, 'label: ResNet-18'), col: 4 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `indent.yaml:${errors[0].line}:4 subjects.resnet18.label: \`label\` is at column 4 but belongs to subject \`resnet18\` (its keys are at column 5). Indent it to column 5.`,
    );
    expect(lines[0]).not.toMatch(/same column|compact mappings|Implicit keys/);
  });

  it("a subject's key outdented to the subject's column: the key, not six schema errors", async () => {
    const { error } = await oneErrorAt('outdent', ['    sites: { layer2: layer2 }', '  sites: { layer2: layer2 }'], {
      code: 'misplaced-key',
      line: lineOf(tiny, 'sites: {'),
      col: 3,
      path: '/subjects/sites',
      message: '`sites` is at column 3 but belongs to subject `resnet18` (its keys are at column 5).',
      hint: 'Indent it to column 5.',
    });
    // What the schema said (resnet18 lacks sites; "subject" sites lacks label, model, ...) is folded under it.
    expect(error.follow_ons?.map((f) => f.code)).toContain('missing-key');
  });

  it("a tool's declaration misspelt: the error is at the declaration, not at the group that names the tool right", async () => {
    const uses = lineOf(tiny, 'tools: [raw, hooks');
    const { line } = await oneErrorAt(
      'declaration',
      ['  hooks: { label: forward hooks }', '  hoosk: { label: forward hooks }'],
      {
        code: 'misspelt-declaration',
        line: lineOf(tiny, 'hooks: { label'),
        col: 3,
        path: '/tools/hoosk',
        message: `tool 'hoosk' is declared here but used nowhere, while line ${uses} uses 'hooks', which is not declared.`,
        hint: "Rename the declaration to 'hooks'.",
      },
    );
    expect(line).not.toContain("Did you mean 'hoosk'");
  });

  it('a misspelt use of a correct declaration keeps its error at the use', async () => {
    const file = edited('use', '      raw_forward: [reference]', '      raw_forwad: [reference]');
    const { errors } = await validate(file);
    expect(errors[0]).toMatchObject({
      code: 'unknown-contract',
      line: lineOf(tiny, 'raw_forward: [reference]'),
      hint: "Did you mean 'raw_forward'?",
    });
  });
});

describe('findMisindented', () => {
  it('names the first line whose column its siblings do not share, with theirs', () => {
    expect(findMisindented('a:\n  b: 1\n   c: 2\n  d: 3\n')).toMatchObject({
      line: 3,
      col: 4,
      expected: 3,
      key: 'c',
      parent: '/a',
      pointer: '/a/c',
    });
    expect(findMisindented('a:\n   b: 1\n  c: 2\n  d: 3\n')).toMatchObject({ line: 2, col: 4, expected: 3, key: 'b' });
  });

  it('follows list items and their keys', () => {
    const secondItem = 'l:\n  - x: 1\n    y: 2\n  - x: 3\n   y: 4\n';
    expect(findMisindented(secondItem)).toMatchObject({ line: 5, col: 4, expected: 5, key: 'y', pointer: '/l/1/y' });
    expect(findMisindented('l:\n- a\n- b\nm: 1\n')).toBeUndefined();
  });

  it('reads nothing into block scalars, flow collections, quotes and comments', () => {
    const text = [
      'a: >-',
      '  text: that looks like a key',
      '     and more',
      'b: { x: 1,',
      '   y: 2 }',
      "c: 'it''s",
      '   z: 3' + "'",
      "d: it's fine # e: 1",
      '  # f: 2',
      'g:',
      '  - |',
      '    h: 5',
      '  - i: 6',
      '',
    ].join('\n');
    expect(findMisindented(text)).toBeUndefined();
  });

  it('finds nothing wrong in the specs of this repository', () => {
    const dir = path.join(FIXTURES, '../../specs');
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.yaml')))
      expect(findMisindented(fs.readFileSync(path.join(dir, f), 'utf8')), f).toBeUndefined();
  });
});

describe('parser errors without a line to blame keep a sentence', () => {
  it("a second ': ' in a value says to quote it", async () => {
    const r = await cli(['validate', write(tmpdir(), 'colon.yaml', 'benchgrid: 1\nname: a: b\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/colon\.yaml:2:7: this value holds ': '.* Quote a value that holds ': '/);
    expect(r.stderr).not.toContain('compact mappings');
  });
});
