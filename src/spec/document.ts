// Stage 2 of spec loading: parse YAML into plain data plus a map from JSON pointer to source position.
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type ErrorCode,
  type Node as YamlNode,
  type YAMLError,
} from 'yaml';
import { diag, ptr, type Diagnostic, type Pos } from './diagnostics.ts';
import { findMisindented, misindentedSentence } from './indentation.ts';
import { MAX_SPEC_ALIASES, MAX_SPEC_DEPTH, MAX_SPEC_VALUES, sizeOf } from './limits.ts';

/** Where a value and, for a mapping entry, its key came from. */
export interface Origin {
  value: Pos;
  key?: Pos;
}

/** Positions of every node of a document, by JSON pointer. */
export type PosMap = Map<string, Origin>;

/** A parsed document: its plain data and where each part of it came from. */
export interface ParsedDoc {
  file: string;
  data: unknown;
  positions: PosMap;
  /** How many values the document holds with its aliases expanded (a chain of `extends` shares one limit). */
  values: number;
}

/** Aliases expand at most this many times: a YAML alias bomb is refused, not expanded. */
const MAX_ALIAS_COUNT = 1000;

/**
 * Parses YAML text; every syntax problem becomes a diagnostic, nothing throws. `maxValues` is what is
 * left of MAX_SPEC_VALUES for this file (the specs it is extended by used the rest); `chained` says so
 * in the message.
 */
export function parseYaml(
  file: string,
  text: string,
  maxValues = MAX_SPEC_VALUES,
  chained = false,
): { doc?: ParsedDoc; diagnostics: Diagnostic[] } {
  const lineCounter = new LineCounter();
  let document: ReturnType<typeof parseDocument>;
  try {
    // Duplicate keys are found below, in one pass: yaml's own check compares each key with every
    // earlier one (45,000 keys took 40 s).
    document = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false, strict: true });
  } catch (error) {
    // The parser recurses per nesting level; a hostile depth overflows its stack.
    if (!(error instanceof RangeError)) throw error;
    return { diagnostics: [tooDeep(file)] };
  }
  const at = (offset: number): Pos => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col };
  };
  const diagnostics: Diagnostic[] = [];
  // The parser recurses per nesting level and reports its own stack overflow as a syntax error.
  if (document.errors.some((e) => /call stack/i.test(e.message))) return { diagnostics: [tooDeep(file)] };
  if (document.errors.length > 0) return { diagnostics: syntaxErrors(file, text, document.errors, at) };
  const size = sizeOf(document, maxValues);
  if ('over' in size) {
    const hint = `A spec, with the specs it extends, may nest at most ${MAX_SPEC_DEPTH} levels, hold at most ${MAX_SPEC_VALUES.toLocaleString('en')} values with its aliases expanded and ${MAX_SPEC_ALIASES.toLocaleString('en')} aliases (docs/security.md).`;
    return {
      diagnostics: [
        diag(
          'error',
          'too-large',
          { file, line: 1, col: 1 },
          '',
          `${size.over}${chained && size.over.endsWith('expanded') ? ', together with the specs that extend it' : ''}.`,
          hint,
        ),
      ],
    };
  }
  const bad = keyProblem(document);
  if (bad) return { diagnostics: [diag('error', bad.code, at(bad.node.range?.[0] ?? 0), '', bad.message, bad.hint)] };
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = /alias/i.test(message) ? 'Aliases may expand at most 1000 nodes; write the values out.' : undefined;
    return { diagnostics: [diag('error', 'yaml-alias', { file, line: 1, col: 1 }, '', firstLine(message), hint)] };
  }
  const positions: PosMap = new Map();
  walk(document.contents as YamlNode | null, '', positions, at, undefined);
  return { doc: { file, data, positions, values: size.values }, diagnostics };
}

function walk(node: YamlNode | null, pointer: string, out: PosMap, at: (o: number) => Pos, key: Pos | undefined): void {
  if (!node) return;
  const start = node.range?.[0] ?? 0;
  out.set(pointer, { value: at(start), key });
  if (isMap(node)) {
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const keyPos = at((pair.key as YamlNode | null)?.range?.[0] ?? start);
      const child = pointer + ptr(k);
      if (pair.value) walk(pair.value as YamlNode, child, out, at, keyPos);
      else out.set(child, { value: keyPos, key: keyPos });
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => walk(item as YamlNode, pointer + ptr(i), out, at, undefined));
  }
}

/**
 * The first key that is a list or a mapping (YAML allows it; a spec's keys are names), or that repeats
 * a key of its mapping. One visit, a set of keys per mapping; depth is already bounded.
 */
function keyProblem(
  document: ReturnType<typeof parseDocument>,
): { node: YamlNode; code: string; message: string; hint: string } | undefined {
  let found: ReturnType<typeof keyProblem>;
  visit(document, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = pair.key as YamlNode | null;
        if (key !== null && typeof key === 'object' && !isScalar(key)) {
          found = {
            node: key,
            code: 'bad-key',
            message: 'a mapping key must be plain text, not a list or a mapping.',
            hint: 'Write the key as a name.',
          };
          return visit.BREAK;
        }
        // As the data will hold it: `1` and `'1'` are one key there, a null key is ''.
        const value = key === null ? null : isScalar(key) ? key.value : key;
        const name = value === null ? '' : String(value);
        if (seen.has(name)) {
          found = {
            node: key ?? map,
            code: 'duplicate-key',
            message: `'${name}' appears twice in this mapping (YAML keys must be unique).`,
            hint: 'Remove or rename one of them.',
          };
          return visit.BREAK;
        }
        seen.add(name);
      }
      return undefined;
    },
  });
  return found;
}

/** The parser's codes for a line at a column its mapping does not expect. */
const INDENT_CODES = new Set<ErrorCode>(['BAD_INDENT', 'BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY']);

/**
 * The parser's errors as diagnostics. One indentation mistake makes the parser report two to six
 * errors around it, none at the line that is out of line: when the lines show which one is
 * (indentation.ts), that line is the one error, with the column it belongs at.
 */
function syntaxErrors(file: string, text: string, errors: YAMLError[], at: (offset: number) => Pos): Diagnostic[] {
  // A tab is its own sentence: the columns the lines show would count it as one space.
  if (errors.some((e) => INDENT_CODES.has(e.code)) && !errors.some((e) => e.code === 'TAB_AS_INDENT')) {
    const found = findMisindented(text);
    const lastLine = Math.max(...errors.map((e) => at(e.pos[1]).line));
    if (found && found.line <= lastLine) {
      const { message, hint } = misindentedSentence(found);
      return [
        diag('error', 'bad-indentation', { file, line: found.line, col: found.col }, found.pointer, message, hint),
      ];
    }
  }
  const out: Diagnostic[] = [];
  for (const error of errors) {
    // `Nested mappings ...` and `Implicit keys need to be on a single line` at one place are one mistake.
    if (
      error.code === 'MULTILINE_IMPLICIT_KEY' &&
      errors.some((e) => e.code === 'BLOCK_AS_IMPLICIT_KEY' && e.pos[0] === error.pos[0])
    )
      continue;
    out.push(syntaxError(error, text, at));
  }
  return out;
}

/** One parser error, in words where its code says what the user did; the parser's own text otherwise. */
function syntaxError(error: YAMLError, text: string, at: (offset: number) => Pos): Diagnostic {
  const message = firstLine(error.message);
  const pos = at(error.pos[0]);
  if (error.code === 'TAB_AS_INDENT' || /tab/i.test(message))
    return diag('error', 'tab-indentation', pos, '', message, 'Indent with spaces.');
  if (error.code === 'BAD_INDENT' && /same column/.test(message)) {
    // The parser points at the line's first column; the key starts after its spaces.
    const lineText = text.split(/\r?\n/)[pos.line - 1] ?? '';
    const key = { ...pos, col: lineText.length - lineText.trimStart().length + 1 };
    return diag(
      'error',
      'bad-indentation',
      key,
      '',
      `this key is not at the column of the other keys of its mapping.`,
      'Line it up with them, with spaces.',
    );
  }
  if (error.code === 'BLOCK_AS_IMPLICIT_KEY') {
    return diag(
      'error',
      'bad-indentation',
      pos,
      '',
      "this value holds ': ' (YAML reads a second key there), or the line below it is indented deeper than its key.",
      "Quote a value that holds ': ', or line the next key up with this one.",
    );
  }
  return diag('error', 'yaml-syntax', pos, '', message);
}

function tooDeep(file: string): Diagnostic {
  return diag(
    'error',
    'too-deep',
    { file, line: 1, col: 1 },
    '',
    'the spec nests too deeply to parse.',
    `A spec may nest at most ${MAX_SPEC_DEPTH} levels (docs/security.md).`,
  );
}

function firstLine(s: string): string {
  return s.split('\n')[0].trim();
}

/** The position of a pointer, or of its nearest ancestor that has one. */
export function positionOf(positions: PosMap, pointer: string, file: string, preferKey = false): Pos {
  let p = pointer;
  for (;;) {
    const o = positions.get(p);
    if (o) return preferKey && o.key ? o.key : o.value;
    if (p === '') return { file, line: 1, col: 1 };
    p = p.slice(0, p.lastIndexOf('/'));
  }
}
