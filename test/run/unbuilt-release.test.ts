// A release whose environment cannot be built (here: a torchlens version no index has, built offline)
// becomes an error status on its own cells, with the build's error, and the rest of the run is measured.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import { cli, resnet18Subject, ROOT, tmpdir, write } from '../helpers.ts';

// The project's main environment, so that the run finds it built (.ci/run builds it) and only the
// release layer has to be built.
const main = parse(fs.readFileSync(path.join(ROOT, 'specs/resnet18_gpu.yaml'), 'utf8')).environments.main;

const SPEC = `benchgrid: 1
name: unbuilt
title: a release that does not install
device: cpu
protocol: { warmups: 1, samples: 3, processes: 1, min_samples: 3, budget_s_per_cell: 5, memory_runs: 0, aa_pairs: 0, timeout_s: 120 }
environments:
  main: ${JSON.stringify({ requirements: main.requirements })}
subjects:
${resnet18Subject()}
contracts:
  single_module_output: { site: layer2 }
tools:
  hooks: { label: forward hooks }
  tl_record: { label: "tl.record {version}", versions: [2.36.1, 9.9.9] }
groups:
  A: { reference: hooks, subjects: [resnet18], contracts: [single_module_output], tools: [hooks, tl_record] }
`;

describe('a release environment that cannot be built', () => {
  it('is an error on its cells, with the build error, and the other cells run', async () => {
    const dir = tmpdir();
    const spec = write(dir, 'unbuilt.yaml', SPEC);
    const out = path.join(dir, 'run');
    // Offline and with no wheels: pip cannot find torchlens 9.9.9 (nor anything else), fast and without the network.
    const env = { PIP_NO_INDEX: '1', PIP_FIND_LINKS: fs.mkdtempSync(path.join(dir, 'wheels-')) };
    const started = Date.now();
    const r = await cli(['run', spec, '--out', out], { env, timeout: 300_000 });
    expect(r.stderr).toMatch(
      /environment main\+torchlens-9\.9\.9 could not be built; its cells are recorded as errors and the run goes on/,
    );
    const results = loadResults(path.join(out, 'results.json'));
    const byId = new Map(results.cells.map((c) => [c.id, c]));
    expect(byId.get('A/single_module_output/hooks/resnet18')?.status).toBe('ok');
    expect(byId.get('A/single_module_output/tl_record@2.36.1/resnet18')).toMatchObject({ status: 'ok', exact: 'bit' });
    const broken = byId.get('A/single_module_output/tl_record@9.9.9/resnet18')!;
    expect(broken.status).toBe('error');
    expect(broken.reason ?? broken.error).toMatch(
      /environment main\+torchlens-9\.9\.9 could not be built: building environment 'main\+torchlens-9\.9\.9' failed: .*torchlens==9\.9\.9/,
    );
    expect(results.partial).toBe(false);
    // The run used the main environment: `env prune --older-than` now counts its age from here.
    const listed = JSON.parse((await cli(['env', 'list', '--json', spec])).stdout) as {
      id: string;
      builds: { python: string }[];
    }[];
    const mainPython = listed.find((e) => e.id === 'main')!.builds[0].python;
    expect(
      fs.statSync(path.join(path.dirname(path.dirname(mainPython)), 'benchgrid-env.json')).mtimeMs,
    ).toBeGreaterThanOrEqual(started - 1000);
  }, 300_000);
});
