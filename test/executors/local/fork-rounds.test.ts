// A fresh fork parent per round (src/executors/local/forkserver.ts): processes of one round share a parent, the next
// round gets a new one, and a parent is closed once its last process has ended. Fake parents record what
// they were asked; the real fork server is exercised by forkserver.test.ts.
import { describe, expect, it } from 'vitest';
import { forkLauncher } from '../../../src/executors/local/forkserver.ts';
import type { ProcessJob } from '../../../src/executors/local/launcher.ts';
import type { Exit } from '../../../src/records/outcome.ts';
import type { LauncherProcess } from '../../../src/executors/local/spawn.ts';

const EXIT_OK: Exit = {
  exitCode: 0,
  signal: undefined,
  timedOut: false,
  timeoutS: 60,
  spawnError: undefined,
  stderrTail: '',
  stdoutTail: '',
};

/** Parents that run nothing: each process ends when the test says so. */
function fakeParents() {
  const parents: { id: number; ran: string[]; closed: boolean }[] = [];
  const finish = new Map<string, () => void>();
  const open = async (): Promise<LauncherProcess> => {
    const p = { id: parents.length, ran: [] as string[], closed: false };
    parents.push(p);
    return {
      run: (command) => {
        p.ran.push(command.argv[3]);
        return {
          done: new Promise<Exit>((resolve) => finish.set(command.argv[3], () => resolve(EXIT_OK))),
          kill: () => finish.get(command.argv[3])?.(),
          start: command.start,
        };
      },
      close: async () => {
        p.closed = true;
      },
    };
  };
  return { parents, finish, open };
}

const job = (name: string, round: number, mode: 'time' | 'memory' = 'time'): ProcessJob => ({
  mode,
  python: 'python3',
  request: name,
  result: `${name}.result`,
  stdout: 'o',
  stderr: 'e',
  pythonPath: [],
  threads: 1,
  tmpdir: '/tmp',
  cwd: '/',
  timeoutS: 60,
  round,
});

const tick = () => new Promise((r) => setTimeout(r, 0));

/** A fork launcher over fake parents (with these options), and the parents. */
async function overFakeParents(options: { parentPerRound?: boolean } = {}) {
  const f = fakeParents();
  return { f, launcher: await forkLauncher('python3', 1, { open: f.open, ...options }) };
}

describe('the fork launcher', () => {
  it('forks each round from its own parent and closes a parent once its round is over', async () => {
    const { f, launcher } = await overFakeParents();
    const a = launcher.start(job('a', 0));
    const b = launcher.start(job('b', 0));
    await tick();
    f.finish.get('a')!();
    f.finish.get('b')!();
    await Promise.all([a.done, b.done]);
    const c = launcher.start(job('c', 1));
    await tick();
    expect(f.parents.map((p) => p.ran)).toEqual([['a', 'b'], ['c']]);
    expect(f.parents[0].closed).toBe(true);
    f.finish.get('c')!();
    expect(await c.done).toEqual(EXIT_OK);
    await launcher.close();
    expect(f.parents.every((p) => p.closed)).toBe(true);
  });

  it("keeps an earlier round's parent while one of its processes still runs (--jobs N lets rounds overlap)", async () => {
    const { f, launcher } = await overFakeParents();
    const slow = launcher.start(job('slow', 0));
    const next = launcher.start(job('next', 1));
    await tick();
    expect(f.parents[0].closed).toBe(false);
    f.finish.get('slow')!();
    await slow.done;
    await tick();
    expect(f.parents[0].closed).toBe(true);
    f.finish.get('next')!();
    await next.done;
    await launcher.close();
  });

  it('uses one parent for every round when asked to, as before', async () => {
    const { f, launcher } = await overFakeParents({ parentPerRound: false });
    const runs = [launcher.start(job('a', 0)), launcher.start(job('b', 1)), launcher.start(job('c', 2))];
    await tick();
    for (const n of ['a', 'b', 'c']) f.finish.get(n)!();
    await Promise.all(runs.map((r) => r.done));
    expect(f.parents.map((p) => p.ran)).toEqual([['a', 'b', 'c']]);
    await launcher.close();
  });

  it('starts memory processes cold and says so; a process stopped before its parent was ready never starts', async () => {
    const { f, launcher } = await overFakeParents();
    expect(launcher.start(job('m', 0, 'memory')).start).toBe('cold');
    const late = launcher.start(job('late', 3));
    late.kill();
    expect((await late.done).spawnError).toMatch(/stopped before this process started/);
    await tick();
    expect(f.parents.flatMap((p) => p.ran)).not.toContain('late');
    f.finish.get('m')!();
    await launcher.close();
  });
});
