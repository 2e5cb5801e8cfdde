// The harness's result writer against schemas/result.schema.json. The Python unit tests
// (runners/harness/tests/test_result.py) check the writer's fields and atomic write; the test Python has
// no JSON Schema validator, so the full schema check of what it writes is made here, with the ajv
// validator the orchestrator reads results with.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { validatorFor } from '../../src/spec/schema.ts';
import { ROOT, testPython, tmpdir } from '../helpers.ts';

const HARNESS = path.join(ROOT, 'runners/harness');

// Every measured part comes from the harness's own functions on a tiny model, composed as cell.py composes
// them; `result.build` and `result.write_atomically` then write one file per outcome.
const WRITE_RESULTS = `
import random, sys, torch
from torch import nn
from benchgrid_harness import exactness, memory, result, timing, witnesses
from benchgrid_harness.environment import environment, versions
from benchgrid_harness.phases import Phases, process_age_s

out, cpu = sys.argv[1], torch.device("cpu")
torch.manual_seed(0)
model, x = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)), torch.randn(2, 4)
run = lambda: model(x)
settings = {"warmups": 1, "samples": 6, "min_samples": 2, "sampling_budget_s": 10.0, "precision": 0.5}
work_needed = {"forwards": 1, "parameter_grads": False}
phases = Phases()
phases.set("startup", process_age_s())
with torch.no_grad(), phases("timed"):
    timing.warm_up(run, 1, cpu)
    measured, last = timing.sample(run, settings, cpu)
    exact = exactness.compare(exactness.to_cpu(last), exactness.to_cpu(run()), "raw", 1e-5, 1e-6)
    before, _ = timing.sample(run, settings, cpu, timing.limits_of(settings, samples=3))
    paired_timing, after, _ = timing.timed_pairs({"settings": settings}, run, run, cpu, random.Random(3), 0.0)
seen, _ = witnesses.observe(run, model, witnesses.find_final_module(model, x), torch.no_grad(), cpu)
work = {"witnesses": seen, "required": witnesses.required(work_needed, None), "differs": witnesses.differences(seen, work_needed, None)}
paired = {"baseline": "raw", "seed": 3, "unpaired": None, **after,
          "before": {"baseline_ms": before["samples_ms"], "baseline_gc_ms": before["gc_ms"], "stopped_by": before["stopped_by"]}}
try:
    raise ValueError("the tool broke")
except ValueError as exc:
    error = result.error_object(exc)
outcomes = {
    "ok": ("time", {"status": "ok", "timing": measured, "exact": exact, "work": work, "notes": ["a note"]}),
    "paired": ("time", {"status": "ok", "timing": paired_timing, "exact": exact, "work": work, "paired": paired}),
    "unpaired": ("time", {"status": "ok", "timing": measured, "paired": {"baseline": "raw", "seed": 3, "unpaired": "the copies differ"}}),
    "memory": ("memory", {"status": "ok", "memory": memory.read_peaks(cpu)}),
    "unsupported": ("time", {"status": "unsupported", "reason": "the tool has no such hook"}),
    "error": ("time", {"status": "error", "error": error}),
}
for name, (mode, outcome) in outcomes.items():
    written = result.build(outcome, "A/single_module_output/raw/tiny", 0, mode, versions(None), environment("cpu"), dict(phases.seconds))
    result.write_atomically(f"{out}/{name}.json", written)
`;

describe("the harness's result writer", () => {
  let dir: string;
  beforeAll(async () => {
    dir = tmpdir();
    await execa(await testPython(), ['-c', WRITE_RESULTS, dir], {
      cwd: HARNESS,
      env: { PYTHONPATH: HARNESS, PYTHONDONTWRITEBYTECODE: '1' },
    });
  });

  it('writes results of every status and mode that schemas/result.schema.json accepts', () => {
    const validate = validatorFor('result.schema.json');
    const names = fs.readdirSync(dir).sort();
    expect(names).toEqual(['error.json', 'memory.json', 'ok.json', 'paired.json', 'unpaired.json', 'unsupported.json']);
    for (const name of names) {
      const written: unknown = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
      expect(
        validate(written),
        `${name}: ${JSON.stringify(validate.errors?.map((e) => `${e.instancePath} ${e.message}`))}`,
      ).toBe(true);
    }
  });

  it('is checked by a validator that refuses what the writer must not write', () => {
    const validate = validatorFor('result.schema.json');
    const ok = JSON.parse(fs.readFileSync(path.join(dir, 'ok.json'), 'utf8'));
    expect(validate({ ...ok, status: 'fine' })).toBe(false);
    expect(validate({ ...ok, timing: { ...ok.timing, samples_ms: ['1.0'] } })).toBe(false);
    const { phases_s: _, ...withoutPhases } = ok;
    expect(validate(withoutPhases)).toBe(false);
  });
});
