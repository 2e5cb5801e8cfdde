// Reading a JSON file that came from elsewhere: size-limited, depth-limited, every failure a UserError.
import fs from 'node:fs';
import { UserError } from '../errors.ts';

/** Deepest nesting accepted in a results file, bundle manifest, spec.json or journal line. */
export const MAX_JSON_DEPTH = 64;

/** Parses JSON text (`noun` names what it should be, e.g. 'results file'); a syntax error or a nesting deeper than MAX_JSON_DEPTH is a UserError naming `file`. */
export function parseJsonText(text: string, file: string, noun: string): unknown {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${file}: not a ${noun}: invalid JSON (${firstLine(error)}). Give the file benchgrid wrote.`);
  }
  if (depthOf(raw) > MAX_JSON_DEPTH) throw new UserError(`${file}: not a ${noun}: nested deeper than ${MAX_JSON_DEPTH} levels. Give the file benchgrid wrote.`);
  return raw;
}

/** Reads and parses a JSON file of at most `maxBytes`; every failure is a UserError naming the file. */
export function readJsonFile(file: string, maxBytes: number, noun: string): unknown {
  let size: number;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new UserError(`${file}: not a ${noun}: not a regular file.`);
    size = stat.size;
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`${file}: cannot read the ${noun} (${code === 'ENOENT' ? 'no such file' : code ?? firstLine(error)}).`);
  }
  if (size > maxBytes) throw new UserError(`${file}: the ${noun} is ${(size / 1048576).toFixed(1)} MB; at most ${maxBytes / 1048576} MB is read (docs/security.md).`);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UserError(`${file}: cannot read the ${noun} (${(error as NodeJS.ErrnoException).code ?? firstLine(error)}).`);
  }
  return parseJsonText(text, file, noun);
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

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}
