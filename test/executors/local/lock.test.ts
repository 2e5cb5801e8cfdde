// A run directory has one writer: a second `run --out DIR` or `run --resume DIR` while a run is live
// there is refused with the live pid (both used to measure the same cells into one journal), and a
// lock left by a process that is gone is named and taken over.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/errors.ts';
import { readJournal } from '../../../src/records/journal.ts';
import { LOCK_FILE, lockRunDir, readHolder, staleness, thisHolder } from '../../../src/executors/local/lock.ts';
import { cli, testPython, tmpdir } from '../../helpers.ts';
import { journalHolds, ONE_RAW_PROCESS, runTiny, startCli } from '../../helpers/tiny-run.ts';

/** A pid that named a process of this machine a moment ago and names none now. */
async function deadPid(): Promise<number> {
  const p = await execa('sh', ['-c', 'echo $$']);
  return Number(p.stdout.trim());
}

describe('a live run directory', () => {
  it('refuses --resume and a second run with the same --out (exit 2, the pid), and nothing of them reaches the journal', async () => {
    const out = path.join(tmpdir(), 'run');
    const python = await testPython();
    // 40 processes of one cell: still measuring (signal handlers on) when it is interrupted below, however slow the machine
    const first = startCli(runTiny(['--only', 'A/single_module_output/raw/*', '--processes', '40'], out, python));
    await journalHolds(out, 1);
    expect(readJournal(out).records.length).toBeGreaterThanOrEqual(1);

    // A run started with --python is resumed with it again (a run directory never names the interpreter).
    const resume = await cli(['run', '--resume', out, '--python', python]);
    const again = await cli(runTiny([], out, python));
    for (const r of [resume, again]) {
      expect(r.code).toBe(EXIT.usage);
      expect(r.stderr).toMatch(
        new RegExp(
          `is in use by benchgrid process ${first.pid} on ${os.hostname()}, running since .*\\(kill ${first.pid}\\)`,
        ),
      );
    }
    first.kill('SIGINT');
    const done = await first;
    expect(done.exitCode, done.stderr).toBe(EXIT.interrupted);
    expect(fs.existsSync(path.join(out, LOCK_FILE))).toBe(false);
    // each process once: the refused commands measured nothing
    const keys = readJournal(out).records.map((r) => r.key);
    expect(keys.length).toBeLessThan(40);
    expect(new Set(keys).size).toBe(keys.length);
  }, 600_000);

  it('names a lock left by a process that is gone (killed -9, say) and takes it over', async () => {
    const out = tmpdir();
    const gone = { ...thisHolder('benchgrid run (killed)'), pid: await deadPid(), pid_start: null };
    fs.writeFileSync(path.join(out, LOCK_FILE), JSON.stringify(gone));
    const r = await cli(runTiny(ONE_RAW_PROCESS, out, await testPython()), {
      timeout: 300_000,
    });
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stderr).toMatch(
      new RegExp(`taking over a stale lock: process ${gone.pid} on ${os.hostname()}, started .*, is gone`),
    );
    expect(readJournal(out).records.map((x) => x.key)).toEqual(['A/single_module_output/raw/resnet18#time#0']);
    expect(fs.existsSync(path.join(out, LOCK_FILE))).toBe(false);
  }, 300_000);
});

describe('the lock file', () => {
  it('takes a lock from another host as live (it cannot be checked from here), naming the host', () => {
    const dir = tmpdir();
    fs.writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ ...thisHolder('benchgrid run x'), host: 'gpu-node-7', pid: 4242 }),
    );
    expect(() => lockRunDir(dir, thisHolder('benchgrid run y'), () => {})).toThrow(
      /in use by benchgrid process 4242 on gpu-node-7/,
    );
  });

  it('refuses a lock file it cannot read rather than guess, saying how to clear it', () => {
    const dir = tmpdir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), '{"pid": "not a number"');
    expect(readHolder(path.join(dir, LOCK_FILE))).toBeNull();
    expect(() => lockRunDir(dir, thisHolder('benchgrid run y'), () => {})).toThrow(
      /in use by a lock file benchgrid cannot read.*delete .*run\.lock/,
    );
  });

  it('tells a reused pid from its holder by the start time, and releases only its own lock', () => {
    const me = thisHolder('benchgrid run a');
    expect(staleness(me)).toBeNull();
    expect(staleness({ ...me, pid_start: '1' })).toMatch(/now belongs to another process/);
    expect(staleness({ ...me, boot: 'another-boot' })).toMatch(/from before this machine's last boot/);
    const dir = tmpdir();
    const release = lockRunDir(dir, me, () => {});
    expect(readHolder(path.join(dir, LOCK_FILE))).toMatchObject({ pid: process.pid, host: os.hostname() });
    release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });
});
