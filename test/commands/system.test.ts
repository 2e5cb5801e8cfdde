// `benchgrid system`: a report of this machine, read for real (a busy process we start must show), and
// the judgement of each fact, checked on facts made for the purpose (a machine with a powersave governor
// and turbo boost is rarely at hand).
import os from 'node:os';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { systemChecks, renderSystem } from '../../src/system/checks.ts';
import type { SystemFacts } from '../../src/system/facts.ts';
import { cli } from '../helpers.ts';

describe('benchgrid system on this machine', () => {
  it('reports its cores, memory and load, and names a process that keeps a CPU busy', async () => {
    const busy = execa('python3', ['-c', 'import time\nt = time.time()\nwhile time.time() - t < 20: pass'], {
      reject: false,
    });
    try {
      await new Promise((r) => setTimeout(r, 500));
      const r = await cli(['system', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const { facts, checks } = JSON.parse(r.stdout) as {
        facts: SystemFacts;
        checks: { name: string; ok: boolean | null }[];
      };
      expect(facts.cores).toBe(os.cpus().length);
      expect(facts.memory.total_bytes).toBe(os.totalmem());
      expect(facts.load_average).toHaveLength(3);
      expect(facts.busy.find((p) => p.pid === busy.pid)).toMatchObject({
        command: expect.stringContaining('python3 -c import time'),
      });
      expect(checks.find((c) => c.name === 'busy processes')?.ok).toBe(false);
      const table = await cli(['system']);
      expect(table.stdout).toMatch(
        new RegExp(`! busy processes: .*\\n(.*\\n)*     pid ${busy.pid}, \\d+% of a CPU: \\S*python3 -c import time`),
      );
      expect(table.stdout).toMatch(/thing(s)? here make(s)? timings noisy \(marked !\)/);
    } finally {
      busy.kill();
    }
  }, 60_000);
});

const quiet: SystemFacts = {
  platform: 'linux 6.1',
  cpu_model: 'Test CPU',
  cores: 8,
  online: '0-7',
  isolated: '',
  virtual_machine: false,
  load_average: [0.1, 0.1, 0.1],
  governors: ['performance'],
  drivers: ['intel_pstate'],
  boost: false,
  memory: { total_bytes: 32 * 1024 ** 3, available_bytes: 30 * 1024 ** 3, swap_used_bytes: 0 },
  steal: 0,
  busy: [],
  sample_s: 1,
};

describe('the checks', () => {
  it('find nothing on a tuned, idle machine', () => {
    const checks = systemChecks(quiet);
    expect(checks.filter((c) => c.ok === false)).toEqual([]);
    expect(renderSystem(quiet, checks, 80)).toMatch(/Nothing found that makes timings noisy/);
  });

  it('say what to do about a powersave governor, turbo boost, load, swap and steal time', () => {
    const noisy: SystemFacts = {
      ...quiet,
      governors: ['powersave'],
      boost: true,
      load_average: [6, 5, 4],
      memory: { ...quiet.memory, swap_used_bytes: 1e9 },
      steal: 0.2,
    };
    const bad = systemChecks(noisy).filter((c) => c.ok === false);
    expect(bad.map((c) => c.name)).toEqual([
      'load average',
      'CPU frequency governor',
      'turbo boost',
      'memory',
      'steal time',
    ]);
    expect(bad.find((c) => c.name === 'CPU frequency governor')?.advice).toMatch(/performance governor/);
    const text = renderSystem(noisy, systemChecks(noisy), 80);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('keeps a hostile command line to one cut line', () => {
    const facts: SystemFacts = {
      ...quiet,
      busy: [{ pid: 1, cpu_percent: 99, command: `x${'\u001b[31m'.repeat(3)}${'y'.repeat(500)}` }],
    };
    const text = renderSystem(facts, systemChecks(facts), 80);
    expect(text.split('\n').every((l) => [...l].length <= 80)).toBe(true);
  });
});
