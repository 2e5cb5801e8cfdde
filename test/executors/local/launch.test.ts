// The one launcher (runners/harness/benchgrid_harness/launch.py) with real processes that import nothing:
// how a process ended, the time limit that kills the whole tree, Ctrl-C's kill, a missing interpreter, and
// the same answers from the bundle driver's synchronous launch.run().
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { startLauncher, runOnce, type LaunchCommand } from '../../../src/executors/local/spawn.ts';
import { HARNESS_DIR } from '../../../src/repository.ts';
import { processesRunning, testPython, tmpdir } from '../../helpers.ts';

let python: string;
let dir: string;
beforeAll(async () => {
  python = await testPython();
  dir = tmpdir();
});

let n = 0;
/** A command running `python -c code`, logs in the test's directory. */
function command(code: string, timeoutS = 60): Omit<LaunchCommand, 'start' | 'python'> {
  const base = path.join(dir, `p${n++}`);
  return {
    argv: ['-c', code],
    cwd: dir,
    pythonpath: [],
    threads: 1,
    tmpdir: dir,
    stdout: `${base}.out`,
    stderr: `${base}.err`,
    cpus: null,
    timeout_s: timeoutS,
  };
}

describe('the launcher', () => {
  it('reports an exit code with the tails of the logs', async () => {
    const exit = await runOnce(
      python,
      command('import sys; print("to stdout"); print("to stderr", file=sys.stderr); sys.exit(3)'),
    );
    expect(exit).toMatchObject({
      exitCode: 3,
      signal: undefined,
      timedOut: false,
      spawnError: undefined,
      timeoutS: 60,
    });
    expect(exit.stdoutTail).toBe('to stdout\n');
    expect(exit.stderrTail).toBe('to stderr\n');
  });

  it("reports a process killed by a signal by the signal's name", async () => {
    const exit = await runOnce(python, command('import os, signal; os.kill(os.getpid(), signal.SIGKILL)'));
    expect(exit).toMatchObject({ exitCode: undefined, signal: 'SIGKILL', timedOut: false });
  });

  it('pins a process to the cores it is given', async () => {
    const cmd = { ...command('import os; print(sorted(os.sched_getaffinity(0)))'), cpus: [0] };
    const exit = await runOnce(python, cmd);
    expect(exit.exitCode, exit.stderrTail).toBe(0);
    expect(exit.stdoutTail.trim()).toBe('[0]');
  });

  it('kills the whole process tree at the time limit, and what a process leaves running when it exits', async () => {
    const hang = command('import subprocess, time; subprocess.Popen(["sleep", "3602"]); time.sleep(3600)', 2);
    const exit = await runOnce(python, hang);
    expect(exit).toMatchObject({ timedOut: true, signal: 'SIGKILL', timeoutS: 2 });
    const stray = await runOnce(python, command('import subprocess; subprocess.Popen(["sleep", "3603"])'));
    expect(stray).toMatchObject({ exitCode: 0, timedOut: false });
    await new Promise((r) => setTimeout(r, 300));
    expect(processesRunning('sleep 3602')).toEqual([]);
    expect(processesRunning('sleep 3603')).toEqual([]);
  });

  it('kills a process when asked (Ctrl-C), and records a missing interpreter as a spawn error', async () => {
    const launcher = await startLauncher(python, 'benchgrid_harness.launch', 1, true);
    try {
      const running = launcher.run({ ...command('import time; time.sleep(3600)'), start: 'cold', python });
      await new Promise((r) => setTimeout(r, 500));
      running.kill();
      expect(await running.done).toMatchObject({ signal: 'SIGKILL', timedOut: false });
      const missing = await launcher.run({
        ...command('pass'),
        start: 'cold',
        python: path.join(dir, 'no-such-python'),
      }).done;
      expect(missing.spawnError).toMatch(/no-such-python: No such file or directory/);
      const forked = await launcher.run({ ...command('pass'), start: 'fork', python }).done;
      expect(forked.spawnError).toMatch(/does not fork/);
    } finally {
      await launcher.close();
    }
  });

  it("gives the bundle driver's launch.run() the same answers", async () => {
    const code = `
import json, sys
from benchgrid_harness import launch
base = ${JSON.stringify(path.join(dir, 'sync'))}
out = []
for code, limit in (("import sys; sys.exit(3)", 60), ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", 60), ("import time; time.sleep(3600)", 2)):
    out.append(launch.run({"python": sys.executable, "argv": ["-c", code], "cwd": ${JSON.stringify(dir)}, "pythonpath": [], "threads": 1,
                           "tmpdir": None, "stdout": base + ".out", "stderr": base + ".err", "cpus": None, "timeout_s": limit}))
print(json.dumps(out))`;
    const r = await execa(python, ['-c', code], { cwd: HARNESS_DIR, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    const [crash, signal, hang] = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(crash).toMatchObject({ exitCode: 3, signal: null, timedOut: false, spawnError: null });
    expect(signal).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false });
    expect(hang).toMatchObject({ timedOut: true, signal: 'SIGKILL', timeoutS: 2 });
    expect(fs.existsSync(`${path.join(dir, 'sync')}.err`)).toBe(true);
  });
});
