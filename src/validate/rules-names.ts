// A rule on names that become file names: a cell's files live in a directory named after its id
// (`processes/GROUP+contract+tool+subject/` in a run, `requests/...` in a bundle), and a file name has
// at most 255 bytes on every file system benchgrid runs on. An id past that passed validate and then
// crashed export and run on ENAMETOOLONG; validate refuses it, at the longest of its names.
import { diag, ptr, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import type { RuleInput } from './rules.ts';
import { splitToolId } from '../spec/versions.ts';

/** Longest file name (bytes) on Linux, macOS and Windows file systems. */
export const MAX_FILE_NAME_BYTES = 255;

/** Every planned cell's id fits in a file name; one diagnostic per name to shorten. */
export function fileNames({ spec, plan }: RuleInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  const reported = new Set<string>();
  for (const c of plan.cells) {
    if (c.status !== 'planned') continue;
    // The directory name is the id with '/' written as '+': the same number of bytes.
    const bytes = Buffer.byteLength(c.id);
    if (bytes <= MAX_FILE_NAME_BYTES) continue;
    const parts: [string, string][] = [
      ['groups', c.group],
      ['contracts', c.contract],
      ['tools', splitToolId(c.tool).tool],
      ['subjects', c.subject],
    ];
    const [section, name] = parts.reduce((a, b) => (Buffer.byteLength(b[1]) > Buffer.byteLength(a[1]) ? b : a));
    const pointer = ptr(section, name);
    if (reported.has(pointer)) continue;
    reported.add(pointer);
    out.push(
      diag(
        'error',
        'name-too-long',
        positionOf(spec.positions, pointer, spec.file, true),
        pointer,
        `the cell id '${c.id}' makes a file name of ${bytes} bytes; a file name may have at most ${MAX_FILE_NAME_BYTES}.`,
        'Shorten the group, contract, tool or subject name (this one is the longest).',
      ),
    );
  }
  return out;
}
