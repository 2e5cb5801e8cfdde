// Disk use of directories with `du` semantics: allocated blocks, each hard-linked file counted once.
import fs from 'node:fs';
import path from 'node:path';
import type { Exit } from '../../records/outcome.ts';

/** Counts the bytes of directories, sharing one set of seen inodes so a hard link counts once overall. */
export class DiskUsage {
  private seen = new Set<string>();

  /** Bytes allocated under `dir` not already counted by an earlier call (symlinks are not followed). */
  measure(dir: string): number {
    let total = 0;
    const stack = [dir];
    while (stack.length > 0) {
      const d = stack.pop()!;
      let names: string[];
      try {
        names = fs.readdirSync(d);
      } catch {
        continue;
      }
      for (const name of names) {
        const p = path.join(d, name);
        let st: fs.BigIntStats;
        try {
          st = fs.lstatSync(p, { bigint: true });
        } catch {
          continue;
        }
        const key = `${st.dev}:${st.ino}`;
        if (this.seen.has(key)) continue;
        this.seen.add(key);
        total += Number(st.blocks) * 512;
        if (st.isDirectory()) stack.push(p);
      }
    }
    return total;
  }
}

/** Below this much free space a disk counts as full. */
const FULL_BYTES = 1024 * 1024;

/**
 * Whether a failed cell process failed for want of disk space rather than because of its tool: killed
 * by SIGXFSZ (a file-size limit), an out-of-space error in the output it managed to keep (Python's
 * `[Errno 28] No space left on device`, `[Errno 27] File too large`, `[Errno 122] Disk quota exceeded`),
 * or a disk with less than 1 MiB left under `dir`.
 */
export function failedForSpace(exit: Exit, dir: string): boolean {
  if (exit.signal === 'SIGXFSZ') return true;
  if (
    /\[Errno (28|27|122)\]|No space left on device|File too large|Disk quota exceeded/.test(
      exit.stderrTail + exit.stdoutTail,
    )
  )
    return true;
  try {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize < FULL_BYTES;
  } catch {
    return false;
  }
}

/** `6.2 GiB`, `38 MiB`, `512 KiB`: binary units, the numbers `du -h` prints. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}
