// Stage 1 of spec loading: find the file and read it as UTF-8 text, refusing what is not a spec file.
import fs from 'node:fs/promises';
import { diag, type Diagnostic } from './diagnostics.ts';

/** A spec larger than this is refused before it is read: real specs are a few kilobytes. */
export const MAX_SPEC_BYTES = 2 * 1024 * 1024;

/** The text of a spec file, or the one diagnostic saying why there is none. */
export type SourceResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

/** Reads a spec file; never throws for bad input. */
export async function readSource(file: string): Promise<SourceResult> {
  const fail = (code: string, message: string, hint?: string): SourceResult => ({
    ok: false,
    diagnostic: diag('error', code, { file, line: 1, col: 1 }, '', message, hint),
  });
  let stat: Awaited<ReturnType<typeof fs.stat>>;
  try {
    stat = await fs.stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail('missing-file', 'no such file.', 'Check the path; specs live in specs/*.yaml.');
    return fail('unreadable', `cannot read the file (${code ?? String(error)}).`);
  }
  if (stat.isDirectory()) return fail('directory', 'is a directory, not a spec file.', 'Name a .yaml file inside it.');
  if (!stat.isFile()) return fail('not-a-file', 'is not a regular file.');
  if (stat.size > MAX_SPEC_BYTES) {
    const mb = (stat.size / 1024 / 1024).toFixed(1);
    return fail(
      'too-large',
      `the file is ${mb} MB; a spec may be at most ${MAX_SPEC_BYTES / 1024 / 1024} MB.`,
      'Is this really a spec?',
    );
  }
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    return fail('unreadable', `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad !== undefined) {
    const { line, col } = lineColOfByte(bytes, bad);
    return {
      ok: false,
      diagnostic: diag(
        'error',
        'not-utf8',
        { file, line, col },
        '',
        `the file is not valid UTF-8 (byte 0x${bytes[bad].toString(16).padStart(2, '0')} at offset ${bad}).`,
        'Save it as UTF-8.',
      ),
    };
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '')
    return fail(
      'empty',
      'the file is empty.',
      'A spec needs at least `benchgrid: 1`, a name, subjects, contracts, tools and groups.',
    );
  return { ok: true, text };
}

/** Offset of the first byte that breaks UTF-8, or undefined when the whole buffer is valid. */
function firstInvalidUtf8(bytes: Buffer): number | undefined {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return undefined;
  } catch {
    // The decoder does not say where; find it by decoding growing prefixes at character boundaries.
    let i = 0;
    while (i < bytes.length) {
      const b = bytes[i];
      const len = b < 0x80 ? 1 : b >> 5 === 6 ? 2 : b >> 4 === 14 ? 3 : b >> 3 === 30 ? 4 : 0;
      if (len === 0 || i + len > bytes.length) return i;
      for (let k = 1; k < len; k++) if (bytes[i + k] >> 6 !== 2) return i;
      i += len;
    }
    return 0;
  }
}

function lineColOfByte(bytes: Buffer, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++)
    if (bytes[i] === 0x0a) {
      line++;
      start = i + 1;
    }
  return { line, col: offset - start + 1 };
}
