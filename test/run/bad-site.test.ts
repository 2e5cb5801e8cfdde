// A site the model does not have: `validate` alone cannot know (a site is a name the spec declares), so
// the subject probe finds it, at `validate --probe` and at the start of every run; a run told not to
// probe stops each cell reading it after its first process, goes on, and exits with a code a CI reads.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.ts';
import { readJournal } from '../../src/records/journal.ts';
import { loadResults } from '../../src/results/load.ts';
import { cli, FIXTURES, testPython, tmpdir } from '../helpers.ts';

const SPEC = path.join(FIXTURES, 'specs/bad-site.yaml');
let python: string;

beforeAll(async () => {
  python = await testPython();
});

describe('a site that is not in the model', () => {
  it('passes plain validate (the trap); validate --probe names its line and the nearest module paths', async () => {
    expect((await cli(['validate', SPEC])).code).toBe(EXIT.ok);
    const r = await cli(['validate', '--probe', SPEC, '--python', python], { timeout: 300_000 });
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(
      /bad-site\.yaml:17:15 subjects\.resnet18\.sites\.layer9: site 'layer9' of subject 'resnet18' is module path 'layer9', which the model does not have \(\d+ modules\)\. Nearest module paths: layer4, layer3, layer2, layer1/,
    );
    expect(r.stderr).toMatch(/invalid: 1 error/);
    // and says what it checked
    expect(r.stdout).toMatch(
      /bad-site\.yaml: probe: 1 subject built \(resnet18 in \S+, \d+ modules\); 1 of 2 sites found in its model, 1 called by the forward$/m,
    );
  }, 300_000);

  it('refuses the run before anything is measured (exit 2), leaving no run directory', async () => {
    const out = path.join(tmpdir(), 'run');
    const r = await cli(['run', SPEC, '--out', out, '--python', python], { timeout: 300_000 });
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/sites\.layer9: site 'layer9'.*Nearest module paths: layer4/);
    expect(r.stderr).toMatch(/the subject probe found a site every cell reading it would fail on; nothing was run/);
    expect(fs.existsSync(out)).toBe(false);
  }, 300_000);

  it('with --no-probe: each cell reading it fails once and starts nothing more; the run goes on and exits 5', async () => {
    const out = path.join(tmpdir(), 'run');
    const r = await cli(['run', SPEC, '--out', out, '--python', python, '--no-probe'], { timeout: 400_000 });
    expect(r.code, r.stderr).toBe(EXIT.cellErrors);
    const records = readJournal(out).records;
    const per = (cell: string) => records.filter((x) => x.cell === cell);
    // raw is timed in its row's paired processes (it starts only its memory and its row's control
    // processes); every cell reading layer9 ran one process, failed, and started nothing more.
    for (const tool of ['raw', 'hooks']) {
      const mine = per(`A/matched_retained/${tool}/resnet18`);
      expect(mine, tool).toHaveLength(1);
      expect(mine[0].outcome).toMatchObject({
        kind: 'result',
        result: { status: 'error', error: { type: 'HarnessError' } },
      });
      expect(per(`A/single_module_output/${tool}/resnet18`).length, tool).toBeGreaterThan(0);
    }
    // the progress total shrank as the cells stopped: the last line counts the processes that ran
    const last = [...r.stderr.matchAll(/\[(\d+)\/(\d+) processes, 4\/4 cells \|/g)].at(-1)!;
    expect(last[1]).toBe(last[2]);
    expect(records).toHaveLength(Number(last[1]));
    const results = loadResults(path.join(out, 'results.json'));
    expect(
      results.cells
        .filter((c) => c.status === 'ok')
        .map((c) => c.id)
        .sort(),
    ).toEqual(['A/single_module_output/hooks/resnet18', 'A/single_module_output/raw/resnet18']);
    const stopped = (results.run!.stopped_early as { cell: string; ran: number; planned: number }[]).sort((a, b) =>
      a.cell.localeCompare(b.cell),
    );
    // raw there plans its memory process and its row's control processes: both cells stopped after one.
    expect(stopped.map((x) => [x.cell, x.ran])).toEqual([
      ['A/matched_retained/hooks/resnet18', 1],
      ['A/matched_retained/raw/resnet18', 1],
    ]);
    expect(stopped.every((x) => x.planned > 1)).toBe(true);
    // the cause in full in the summary (the row cuts it), and the exit code's sentence
    expect(r.stderr).toMatch(
      /- HarnessError: site 'layer9' \(module path 'layer9'\) is not a submodule of the model: ResNet has no\s+attribute `layer9`/,
    );
    expect(r.stderr).toMatch(/2 of 4 planned cells ended in error .*\(exit 5\)/);
  }, 400_000);

  it('says nothing could be measured, and exits 3, when every selected cell fails', async () => {
    const out = path.join(tmpdir(), 'run');
    const r = await cli(
      ['run', SPEC, '--out', out, '--python', python, '--no-probe', '--only', 'A/matched_retained/*/*'],
      { timeout: 300_000 },
    );
    expect(r.code).toBe(EXIT.runFailed);
    expect(r.stderr).toMatch(
      /nothing could be measured: of 2 planned cells, 2 failed and 0 declined at run time; the first cause: HarnessError: site 'layer9'/,
    );
    expect(readJournal(out).records).toHaveLength(2);
  }, 300_000);
});
