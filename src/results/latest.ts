// The `latest` pointer of a spec's runs: results/<spec>/latest, a relative symbolic link to the newest
// finished run's directory, replaced atomically (history and people find the newest run without sorting).
import fs from 'node:fs';
import path from 'node:path';

/** Points `<dir>/../latest` at `dir` when dir sits in the spec's own folder (results/<spec>/<stamp>). */
export function pointLatest(dir: string, specName: string): string | null {
  const parent = path.dirname(dir);
  if (path.basename(parent) !== specName) return null; // an --out elsewhere: not ours to annotate
  const link = path.join(parent, 'latest');
  const tmp = `${link}.${process.pid}.tmp`;
  try {
    fs.rmSync(tmp, { force: true });
    fs.symlinkSync(path.basename(dir), tmp);
    fs.renameSync(tmp, link);
    return link;
  } catch {
    // A file system without symbolic links: the pointer is a convenience, the run itself is complete.
    fs.rmSync(tmp, { force: true });
    return null;
  }
}
