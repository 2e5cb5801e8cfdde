// Contract facts are data (runners/harness/contracts.json): the spec is checked against them, and the facts agree
// with the schemas, the manifests and the Python side that reads the requests built from them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACTS_FILE, contractFacts, readContracts } from '../../src/spec/contracts.ts';
import { builtinRunnerDirs, readManifest } from '../../src/spec/manifests.ts';
import { validatorFor } from '../../src/spec/schema.ts';
import { cli, FIXTURES, resnet18Subject, ROOT, tmpdir, write } from '../helpers.ts';

const SPEC = (contracts: string) => `benchgrid: 1
name: facts
title: Facts
device: cpu
subjects:
${resnet18Subject(', stimuli: 2, batch_size: 2')}
contracts:
${contracts}
tools:
  hooks: { label: forward hooks }
groups:
  A:
    reference: hooks
    subjects: [resnet18]
    contracts: [steer]
    tools: [hooks]
`;

describe('runners/harness/contracts.json', () => {
  const facts = readContracts(CONTRACTS_FILE);

  it('matches schemas/contracts.schema.json and names every contract a built-in adapter implements', () => {
    expect(facts).not.toBeInstanceOf(Error);
    const kinds = Object.keys(facts as object);
    for (const dir of Object.values(builtinRunnerDirs())) {
      const m = readManifest(dir);
      if (m instanceof Error) throw m;
      for (const [id, a] of Object.entries(m.adapters))
        for (const c of a.contracts) expect(kinds, `${id}: ${c}`).toContain(c);
    }
  });

  it('gives gradients to exactly the contracts whose work reaches a backward', () => {
    const f = facts as Exclude<typeof facts, Error>;
    expect(
      Object.values(f)
        .filter((x) => x.grad)
        .map((x) => x.kind)
        .sort(),
    ).toEqual([
      'attribution_patching',
      'backward_capture',
      'generated_token_attribution',
      'grad_cam',
      'integrated_gradients',
      'lrp_epsilon',
      'same_site_gradient',
      'site_gradient_only',
    ]);
    // attribution_patching: the clean and the corrupted forward, one backward to the block outputs only; it reads, so no guard.
    expect([f.attribution_patching.work, f.attribution_patching.writes]).toEqual([
      { forwards: 2, parameter_grads: false },
      undefined,
    ]);
    expect(f.same_site_gradient.work).toEqual({ forwards: 1, parameter_grads: true });
    expect(f.site_gradient_only.work).toEqual({ forwards: 1, parameter_grads: false });
    expect(f.site_output_stopped.work?.forwards).toBe(0);
  });

  it("is extended by a runner's own contracts.json, which may not redefine a built-in kind", () => {
    const dir = path.join(FIXTURES, 'runners/unfair');
    const all = contractFacts({ unfair: readManifest(dir) });
    expect(all).not.toBeInstanceOf(Error);
    expect((all as Record<string, unknown>).site_output_norm).toMatchObject({ grad: false, params: { site: 'site' } });
    const clash = tmpdir();
    fs.copyFileSync(path.join(dir, 'manifest.json'), path.join(clash, 'manifest.json'));
    write(
      clash,
      'contracts.json',
      JSON.stringify({
        contracts: 1,
        kinds: { same_site_gradient: { label: 'x', grad: false, params: {}, work: null } },
      }),
    );
    expect(String(contractFacts({ clash: readManifest(clash) }))).toMatch(
      /already defined in .*contracts\.json; give it its own id/,
    );
  });

  it('produces requests that pass schemas/request.schema.json, carrying grad and work', async () => {
    const { loadSpec } = await import('../../src/validate/load.ts');
    const { buildRequest } = await import('../../src/run/jobs.ts');
    const { runSettings } = await import('../../src/settings/settings.ts');
    const loaded = await loadSpec(path.join(FIXTURES, 'specs/work.yaml'));
    const validate = validatorFor('request.schema.json');
    for (const cell of loaded.plan!.cells.filter((c) => c.status === 'planned')) {
      const request = buildRequest(
        { spec: loaded.spec!, manifests: loaded.manifests!, ...runSettings(loaded.spec!, {}, () => 0) },
        { key: 'k', cell, kind: 'time', index: 0 },
      );
      expect(validate(request), `${cell.id}: ${JSON.stringify(validate.errors?.[0])}`).toBe(true);
      expect(request.contract.grad).toBe(cell.kind === 'same_site_gradient');
    }
  });

  it('is what the Python self-check reads (no second list of contract facts in Python)', () => {
    const harness = fs
      .readdirSync(path.join(ROOT, 'runners/harness/benchgrid_harness'))
      .filter((f) => f.endsWith('.py'))
      .map((f) => fs.readFileSync(path.join(ROOT, 'runners/harness/benchgrid_harness', f), 'utf8'))
      .join('\n');
    expect(harness).not.toMatch(/same_site_gradient|backward_capture|GRAD_CONTRACTS/);
    expect(fs.readFileSync(path.join(ROOT, 'runners/harness/selfcheck.py'), 'utf8')).toContain(
      '"harness" / "contracts.json',
    );
  });
});

/** `validate` of SPEC with the contract `steer` declared as `contract`, written as `name`: refused (exit 2); what it said. */
async function refused(name: string, contract: string): Promise<string> {
  const r = await cli(['validate', write(tmpdir(), name, SPEC(contract))]);
  expect(r.code).toBe(2);
  return r.stderr;
}

describe('validate checks each contract against its facts', () => {
  it('a missing parameter is one clear line with its position, and exit 2', async () => {
    const stderr = await refused(
      'missing.yaml',
      '  steer: { kind: repeated_steering, site: layer2, params: { strengths: [1] } }',
    );
    expect(stderr).toMatch(
      /missing\.yaml:\d+:\d+.*contract 'steer' \(repeated_steering\) needs 'direction_seed', a non-negative integer\./,
    );
  });

  it('a parameter of the wrong type (an epsilon that is a string) is refused with its position', async () => {
    const stderr = await refused(
      'epsilon.yaml',
      '  steer: { kind: lrp_epsilon, params: { target: 0, epsilon: "0.25" } }',
    );
    expect(stderr).toMatch(/epsilon\.yaml:\d+:\d+.*contract 'steer': 'epsilon' must be a number \(got "0\.25"\)\./);
  });

  it("a contract's own tolerance reaches its requests, and a negative one is refused", async () => {
    const { loadSpec } = await import('../../src/validate/load.ts');
    const { buildRequest } = await import('../../src/run/jobs.ts');
    const { runSettings } = await import('../../src/settings/settings.ts');
    const good = write(
      tmpdir(),
      'tolerance.yaml',
      SPEC('  steer: { kind: single_module_output, site: layer2, exactness: { atol: 1.0e-4 } }'),
    );
    const loaded = await loadSpec(good);
    const cell = loaded.plan!.cells.find((c) => c.status === 'planned')!;
    const request = buildRequest(
      { spec: loaded.spec!, manifests: loaded.manifests!, ...runSettings(loaded.spec!, {}, () => 0) },
      { key: 'k', cell, kind: 'time', index: 0 },
    );
    expect(request.settings).toMatchObject({ rtol: 1e-5, atol: 1e-4 });
    const negative = await refused(
      'negative.yaml',
      '  steer: { kind: single_module_output, site: layer2, exactness: { atol: -1 } }',
    );
    expect(negative).toMatch(/negative\.yaml:\d+:\d+.*exactness.*atol/);
  });

  it('a contract kind without facts, with a suggestion', async () => {
    const stderr = await refused('unknown.yaml', '  steer: { kind: repeated_steerin, site: layer2 }');
    expect(stderr).toMatch(
      /unknown\.yaml:\d+:\d+.*contract kind 'repeated_steerin' has no facts in runners\/harness\/contracts\.json.*Did you mean 'repeated_steering'\?/s,
    );
  });
});
