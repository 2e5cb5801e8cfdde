// The run settings: one function makes them from a spec and the command line's flags; a resumed run or an
// ingested bundle rebuilds the same settings from what it recorded.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedFlags, runSettings, TIMING_FLAGS } from '../../src/settings/settings.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { FIXTURES } from '../helpers.ts';

async function tiny() {
  const loaded = await loadSpec(path.join(FIXTURES, 'specs/tiny.yaml'));
  return loaded.spec!;
}

describe('runSettings', () => {
  it("is the spec's settings when no flag is given, and records no override", async () => {
    const spec = await tiny();
    const s = runSettings(spec, {}, () => 42);
    expect(s).toEqual({
      device: spec.device,
      protocol: spec.protocol,
      schedule: { kind: spec.protocol.schedule, seed: 42 },
      overrides: {},
    });
  });

  it('applies --processes, --samples and --warmups, records exactly those, and keeps min_samples within samples', async () => {
    const spec = await tiny();
    const s = runSettings(spec, { processes: 7, samples: 1, warmups: 0 }, () => 0);
    expect(s.protocol).toMatchObject({ processes: 7, samples: 1, warmups: 0, min_samples: 1 });
    expect(s.overrides).toEqual({ processes: 7, samples: 1, warmups: 0 });
    // What the flags do not name stays the spec's.
    expect({ ...s.protocol, processes: 0, samples: 0, warmups: 0, min_samples: 0 }).toEqual({
      ...spec.protocol,
      processes: 0,
      samples: 0,
      warmups: 0,
      min_samples: 0,
    });
    expect(spec.protocol.warmups).not.toBe(0);
  });

  it('applies --memory-runs and --aa-pairs under the protocol keys they override, and records them so', async () => {
    const spec = await tiny();
    const s = runSettings(spec, { memory_runs: 3, aa_pairs: 5 }, () => 0);
    expect(s.protocol).toEqual({ ...spec.protocol, memory_runs: 3, aa_pairs: 5 });
    expect(s.overrides).toEqual({ memory_runs: 3, aa_pairs: 5 });
    expect(runSettings(spec, recordedFlags(s.overrides, s.schedule), () => 1).protocol).toEqual(s.protocol);
  });

  it('takes --device, --schedule and --seed; the seed function only when no --seed is given', async () => {
    const spec = await tiny();
    const never = () => {
      throw new Error('asked for a seed');
    };
    const s = runSettings(spec, { device: 'cuda', schedule: 'sequential', seed: 9 }, never);
    expect(s).toMatchObject({
      device: 'cuda',
      schedule: { kind: 'sequential', seed: 9 },
      overrides: { device: 'cuda' },
    });
  });

  it('gives a resumed run the settings it started with, from the overrides and schedule it recorded', async () => {
    const spec = await tiny();
    const first = runSettings(spec, { samples: 5, warmups: 2, device: 'cpu', schedule: 'interleaved' }, () => 1234);
    const again = runSettings(spec, recordedFlags(first.overrides, first.schedule), () => 99);
    expect(again).toEqual(first);
    // A journal or bundle from before the interleaved schedule resumes in sequential order.
    expect(runSettings(spec, recordedFlags({}, undefined), () => 99).schedule).toEqual({ kind: 'sequential', seed: 0 });
  });

  it('bounds every timing flag as the spec schema bounds the same key', async () => {
    const { default: schema } = await import('../../schemas/spec.schema.json', { with: { type: 'json' } });
    for (const f of TIMING_FLAGS) {
      const key = schema.$defs.protocol.properties[f.key] as {
        minimum?: number;
        maximum?: number;
        exclusiveMinimum?: number;
        exclusiveMaximum?: number;
      };
      // A percentage flag (--precision 2) stands for the fraction the spec writes (0.02), bounds excluded.
      if (f.percent) expect([f.min / 100, f.max / 100], f.flag).toEqual([key.exclusiveMinimum, key.exclusiveMaximum]);
      else expect([f.min, f.max], f.flag).toEqual([key.minimum, key.maximum]);
    }
  });
});
