// Garbage collection policy (docs/protocol.md): no collection lands inside a timed sample, and the cost of
// the garbage a tool makes is still measured, as gc_ms between samples.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { cli, FIXTURES, testPython, tmpdir } from '../helpers.ts';

type Event = [kind: string, ns: number, generation: number | null];

let results: Results;
let out: string;
const CELL = 'G/single_module_output/cyclic/resnet18';

/** Every gc trace the cyclic adapter wrote (one per process), each a list of events in time order. */
function traces(): Event[][] {
  const found: Event[][] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.gc-trace.json')) found.push(JSON.parse(fs.readFileSync(p, 'utf8')));
    }
  };
  walk(path.join(out, 'processes'));
  return found;
}

/** The calls (enter, exit) of a trace, and the collections that started inside each. */
function callsWithCollections(events: Event[]): { collections: number }[] {
  const calls: { collections: number }[] = [];
  let open: { collections: number } | null = null;
  for (const [kind] of events) {
    if (kind === 'enter') open = { collections: 0 };
    else if (kind === 'exit' && open) {
      calls.push(open);
      open = null;
    } else if (kind === 'gc_start' && open) open.collections += 1;
  }
  return calls;
}

beforeAll(async () => {
  out = path.join(tmpdir(), 'run');
  // Cold starts: a forked process leaves by os._exit, which skips the adapter's exit handler.
  const r = await cli(
    ['run', path.join(FIXTURES, 'specs/gc.yaml'), '--out', out, '--start', 'cold', '--python', await testPython()],
    { timeout: 300_000 },
  );
  expect(r.code, r.stderr).toBe(0);
  results = loadResults(path.join(out, 'results.json'));
}, 320_000);

describe('garbage collection and timed samples', () => {
  it('lets collections happen inside warm-up calls, so the adapter does trip the collector', () => {
    const all = traces();
    expect(all).toHaveLength(2);
    for (const events of all) {
      const calls = callsWithCollections(events);
      // the contract function's probe is not a call; 3 warm-ups + 8 samples + the untimed witness call are
      // (docs/contracts.md: the work witnesses observe one extra call after the samples)
      expect(calls).toHaveLength(12);
      const warmups = calls.slice(0, 3);
      expect(warmups.reduce((a, c) => a + c.collections, 0)).toBeGreaterThan(0);
    }
  });

  it('never runs a collection inside a timed sample', () => {
    for (const events of traces()) {
      const samples = callsWithCollections(events).slice(3, 11);
      expect(samples).toHaveLength(8);
      expect(samples.map((c) => c.collections)).toEqual(new Array(8).fill(0));
      // and one collection between consecutive samples, after each one
      const between = events.filter(([k]) => k === 'gc_start').length;
      expect(between).toBeGreaterThanOrEqual(8);
    }
  });

  it("drops each sample's result before the next sample starts, not inside its window", () => {
    for (const events of traces()) {
      const kinds = events.map(([k]) => k);
      // Sample i's result is freed after its timed collection (which starts after the clock stopped) and
      // before sample i+1 is entered: exit, gc_start, gc_stop, freed, enter. (Before the policy it was
      // freed by the next sample's assignment, after that sample's exit, inside its window.)
      // The 8 timed samples: after the 3 warm-ups, before the witness call.
      const enters = kinds.flatMap((k, i) => (k === 'enter' ? [i] : [])).slice(3, 11);
      expect(enters).toHaveLength(8);
      for (let s = 1; s < enters.length; s++) {
        expect(kinds.slice(enters[s - 1] + 1, enters[s])).toEqual(['exit', 'gc_start', 'gc_stop', 'freed']);
      }
      const last = kinds.slice(enters[enters.length - 1]);
      // (the last sample's result is freed after its collection too, before the witness call)
      expect(last.slice(0, last.indexOf('exit') + 1)).not.toContain('freed');
    }
  });

  it('records the timed collection after each sample as gc_ms, per process and for the cell', () => {
    const c = results.cells.find((x) => x.id === CELL)!;
    expect(c.status).toBe('ok');
    expect(c.exact).toBe('bit');
    expect(c.gc_ms).toHaveLength(2);
    for (const [i, gc] of c.gc_ms!.entries()) {
      expect(gc).toHaveLength(c.samples_ms![i].length);
      // 5000 cycles take measurable time to find and free
      expect(gc.every((ms) => ms > 0)).toBe(true);
    }
    expect(c.gc_median_ms).toBeGreaterThan(0);
    expect(c.per_process!.every((p) => (p.gc_median_ms ?? 0) > 0)).toBe(true);
  });
});
