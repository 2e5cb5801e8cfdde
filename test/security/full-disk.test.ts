// A disk that fills up during a run: a clear error (exit 3, not a crash), what was measured kept in the
// journal, no temporary file left, and `--resume` finishes the run once there is room again.
//
// The full disk is a file-size limit (RLIMIT_FSIZE, set with util-linux's `prlimit --fsize` on the
// benchgrid process, inherited by its Python processes): no root, no loop device, nothing mounted. It is
// faithful where it matters: the kernel fails the write(2) that would grow a file past the limit, after
// writing what fits, exactly as on a full file system; only the error code differs (EFBIG for ENOSPC;
// Node and Python ignore the SIGXFSZ that comes with it and see the error), and benchgrid treats ENOSPC,
// EDQUOT and EFBIG alike. The limit is per file, so each case chooses a size that the journal or the
// HTML report outgrows at a known point.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { failedForSpace } from '../../src/executors/local/disk.ts';
import { readJournal } from '../../src/records/journal.ts';
import { loadResults } from '../../src/results/load.ts';
import { appendLine, writeAtomic } from '../../src/util/files.ts';
import { ROOT, testPython, tmpdir } from '../helpers.ts';
import { ONE_RAW_PROCESS, runTiny } from '../helpers/tiny-run.ts';

// raw is timed inside its row's paired processes: hooks and tv_fx give the journal its four process records.
const ONLY = 'A/single_module_output/raw/*,A/single_module_output/hooks/*,A/single_module_output/tv_fx/*';
const havePrlimit = fs.existsSync('/usr/bin/prlimit') || fs.existsSync('/bin/prlimit');
let python: string;

beforeAll(async () => {
  python = await testPython();
});

/** `benchgrid ARGS` with its files limited to `bytes` each (no limit: null). */
async function limited(bytes: number | null, args: string[]) {
  const node = [process.execPath, path.join(ROOT, 'bin/benchgrid.js'), ...args];
  const [command, ...rest] = bytes === null ? node : ['prlimit', `--fsize=${bytes}`, ...node];
  const r = await execa(command, rest, { reject: false, env: { NO_COLOR: '1' }, timeout: 300_000, stdin: 'ignore' });
  return { code: r.exitCode, stderr: r.stderr };
}

/** Files under a directory whose names end in `.tmp` (a writer's temporary file), recursively. */
function tmpFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.tmp'))
    .map((e) => e.name);
}

describe.skipIf(!havePrlimit)('a disk that fills up during a run', () => {
  it('while journaling: exit 3 naming the file, the journal intact, nothing temporary left; --resume finishes', async () => {
    const out = path.join(tmpdir('benchgrid-full-'), 'run');
    // The header (about 480 bytes) and one process record (about 1.9 kB, with its paired samples) fit in 4,000 bytes; the second does not.
    const r = await limited(4000, runTiny(['--only', ONLY], out, python));
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /cannot write .*journal\.jsonl: the file would be larger than this process may write \(EFBIG\)\. What was measured is kept: \d+ finished process\(es\) in .*journal\.jsonl\. Free some space, then finish the run with: benchgrid run --resume .* --python /,
    );
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    const before = readJournal(out).records;
    expect(before.length).toBeGreaterThanOrEqual(1);
    expect(before.length).toBeLessThan(4);
    // Every line of the journal is a whole record: the write that did not fit was undone.
    for (const line of fs.readFileSync(path.join(out, 'journal.jsonl'), 'utf8').trimEnd().split('\n'))
      expect(() => JSON.parse(line)).not.toThrow();
    expect(tmpFiles(out)).toEqual([]);

    const resumed = await limited(null, ['run', '--resume', out, '--python', python]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = readJournal(out).records;
    // 2 processes each of hooks and tv_fx (raw is timed in their processes) and the 2 of their row's control
    expect(after).toHaveLength(6);
    expect(after.filter((a) => a.kind === 'control')).toHaveLength(2);
    for (const rec of before) expect(after.find((a) => a.key === rec.key)).toEqual(rec);
    const results = loadResults(path.join(out, 'results.json'));
    expect(results.partial).toBe(false);
    expect(results.cells.filter((c) => c.status === 'ok')).toHaveLength(3);
  }, 600_000);

  it('while writing the reports: exit 3, results.json written, no temporary report left; --resume writes them', async () => {
    const out = path.join(tmpdir('benchgrid-full-'), 'run');
    // The journal and results.json stay under 100 kB; report.html (Chart.js inlined) does not.
    const r = await limited(100_000, runTiny(ONE_RAW_PROCESS, out, python));
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /cannot write .*report\.html: the file would be larger than this process may write \(EFBIG\)\. What was measured is kept: 1 finished process\(es\)/,
    );
    expect(tmpFiles(out)).toEqual([]);
    expect(fs.existsSync(path.join(out, 'report.html'))).toBe(false);
    const resumed = await limited(null, ['run', '--resume', out, '--python', python]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(fs.statSync(path.join(out, 'report.html')).size).toBeGreaterThan(100_000);
    expect(readJournal(out).records).toHaveLength(1);
  }, 600_000);
});

describe('the pieces', () => {
  it('writeAtomic leaves the old file and no temporary file when the new one does not fit', async () => {
    const dir = tmpdir('benchgrid-full-unit-');
    const file = path.join(dir, 'page.html');
    fs.writeFileSync(file, 'old\n');
    const script = `import { writeAtomic } from ${JSON.stringify(path.join(ROOT, 'src/util/files.ts'))};
try { writeAtomic(${JSON.stringify(file)}, 'x'.repeat(10000)); } catch (e) { console.log(e.constructor.name, e.exitCode, e.message); }`;
    if (!havePrlimit) return;
    const r = await execa(
      'prlimit',
      ['--fsize=1000', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: ROOT, reject: false },
    );
    expect(r.stdout).toMatch(
      /^NoSpaceError 3 cannot write .*page\.html: the file would be larger than this process may write \(EFBIG\)\./,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
    expect(fs.readdirSync(dir)).toEqual(['page.html']);
    expect(typeof writeAtomic).toBe('function');
  });

  it('appendLine never writes through a link', () => {
    const dir = tmpdir('benchgrid-full-unit-');
    const target = path.join(dir, 'target');
    fs.writeFileSync(target, 'keep\n');
    fs.symlinkSync(target, path.join(dir, 'journal.jsonl'));
    expect(() => appendLine(path.join(dir, 'journal.jsonl'), '{}\n')).toThrow(/is a symbolic link/);
    expect(fs.readFileSync(target, 'utf8')).toBe('keep\n');
  });

  it("a cell process that failed for want of space stops the run instead of becoming the cell's error", () => {
    const exit = {
      exitCode: 1,
      signal: undefined,
      timedOut: false,
      timeoutS: 60,
      spawnError: undefined,
      stdoutTail: '',
      stderrTail: '',
    };
    const dir = tmpdir('benchgrid-full-unit-');
    expect(failedForSpace({ ...exit, signal: 'SIGXFSZ', exitCode: undefined }, dir)).toBe(true);
    expect(failedForSpace({ ...exit, stderrTail: "OSError: [Errno 28] No space left on device: 'x.json'" }, dir)).toBe(
      true,
    );
    expect(failedForSpace({ ...exit, stderrTail: 'ValueError: boom' }, dir)).toBe(false);
  });
});
