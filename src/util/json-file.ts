// Reading a JSON file that came from elsewhere: size-limited, depth-limited, every failure a UserError.
import fs from 'node:fs';
import { UserError } from '../errors.ts';

/** Deepest nesting accepted in a results file, bundle manifest, spec.json or journal line. */
export const MAX_JSON_DEPTH = 64;

/** Parses JSON text (`noun` names what it should be, e.g. 'results file'); a syntax error or a nesting deeper than MAX_JSON_DEPTH is a UserError naming `file`. */
export function parseJsonText(text: string, file: string, noun: string): unknown {
  // A byte-order mark (some Windows editors write one) is not part of the document.
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    throw new UserError(
      `${file}: not a ${noun}: invalid JSON${whereInvalid(body, error)}. Give the file benchgrid wrote.`,
    );
  }
  if (depthOf(raw) > MAX_JSON_DEPTH)
    throw new UserError(
      `${file}: not a ${noun}: nested deeper than ${MAX_JSON_DEPTH} levels. Give the file benchgrid wrote.`,
    );
  const twice = firstDuplicateKey(body);
  if (twice)
    throw new UserError(
      `${file}: not a ${noun}: the key ${JSON.stringify(twice.key.length > 80 ? `${twice.key.slice(0, 77)}...` : twice.key)} appears twice in one object (line ${twice.line}); JSON.parse would keep only the last. Give the file benchgrid wrote.`,
    );
  return raw;
}

/**
 * The first key that repeats within one object of valid JSON text, with its line; undefined when none
 * does. JSON.parse keeps the last of two equal keys in silence, so a cell listed twice would show the
 * second to benchgrid and the first to a reader of the file. One pass, a set of keys per open object.
 */
export function firstDuplicateKey(text: string): { key: string; line: number } | undefined {
  const frames: (Set<string> | null)[] = []; // a set of keys per object, null per array
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      const keys = frames[frames.length - 1];
      if (expectKey && keys) {
        // A key with escapes is compared by what it says: "\u0061" and "a" are one key.
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (keys.has(key)) return { key, line: text.slice(0, i).split('\n').length };
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (ch === 0x7b /* { */) {
      frames.push(new Set());
      expectKey = true;
    } else if (ch === 0x5b /* [ */) frames.push(null);
    else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) frames.pop();
    else if (ch === 0x2c /* , */) expectKey = frames[frames.length - 1] !== null && frames.length > 0;
  }
  return undefined;
}

/** Reads and parses a JSON file of at most `maxBytes`; every failure is a UserError naming the file. */
export function readJsonFile(file: string, maxBytes: number, noun: string): unknown {
  return parseJsonText(readRegularFile(file, maxBytes, noun), file, noun);
}

/**
 * The text of `file`, which must be a regular file (links followed) of at most `maxBytes`: a FIFO, a device
 * or a socket planted where a file belongs would make a read wait forever or never end. It is opened
 * non-blocking and checked again on the open descriptor, so one swapped in after the first look is refused
 * too. Every failure is a UserError naming the file and never quoting its content.
 */
export function readRegularFile(file: string, maxBytes: number, noun: string): string {
  const refuse = (why: string) => new UserError(`${file}: cannot read the ${noun} (${why}).`);
  const notRegular = (st: fs.Stats) =>
    new UserError(
      `${file}: not a ${noun}: not a regular file (${kindOf(st)}); benchgrid reads only regular files there.`,
    );
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw refuse(code === 'ENOENT' ? 'no such file' : (code ?? firstLine(error)));
  }
  if (!st.isFile()) throw notRegular(st);
  if (st.size > maxBytes) throw tooLarge(file, noun, st.size, maxBytes);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    throw refuse((error as NodeJS.ErrnoException).code ?? firstLine(error));
  }
  try {
    const now = fs.fstatSync(fd);
    if (!now.isFile()) throw notRegular(now);
    if (now.size > maxBytes) throw tooLarge(file, noun, now.size, maxBytes);
    return fs.readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw refuse((error as NodeJS.ErrnoException).code ?? firstLine(error));
  } finally {
    fs.closeSync(fd);
  }
}

function tooLarge(file: string, noun: string, size: number, maxBytes: number): UserError {
  return new UserError(
    `${file}: the ${noun} is ${(size / 1048576).toFixed(1)} MB; at most ${maxBytes / 1048576} MB is read (docs/security.md).`,
  );
}

/** What a file that is not a regular file is, in words. */
function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** Nesting depth of plain JSON data, computed without recursion. */
export function depthOf(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d > max) max = d;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Object.values(x)) stack.push([child, d + 1]);
  }
  return max;
}

/**
 * Where JSON.parse stopped, as ` at line L, column C`, when it says; never the engine's own message,
 * which quotes the start of the text (a results path that is a link to /etc/shadow must not print it).
 */
function whereInvalid(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/Unexpected end of JSON input/.test(message)) return ' (it ends too early)';
  const m = /at position (\d+)/.exec(message);
  if (!m) return ' (an unexpected character; the text is not shown)';
  const offset = Number(m[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return ` at line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}
