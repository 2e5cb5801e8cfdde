// The spec revision of a run, for the history's x axis: the last git commit that touched the spec file
// before the run started (git log, argument array, no shell); the spec digest when git cannot tell.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';

/** `a1b2c3d` (git), else `spec:0123abcd` (the results' spec digest), else `unknown`. */
export async function specRevision(
  specName: string,
  date: string,
  digest: string | null,
  cwd = process.cwd(),
): Promise<string> {
  const file = path.join('specs', `${specName}.yaml`);
  if (fs.existsSync(path.join(cwd, file))) {
    const r = await execa('git', ['log', '-1', '--format=%h', `--before=${date}`, '--', file], {
      cwd,
      reject: false,
      stdin: 'ignore',
    });
    const rev = r.exitCode === 0 ? r.stdout.trim() : '';
    if (/^[0-9a-f]{4,40}$/.test(rev)) return rev;
  }
  return digest ? `spec:${digest.slice(0, 8)}` : 'unknown';
}
