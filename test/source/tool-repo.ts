// A local git repository holding hookkit (test/fixtures/sources/hookkit), a small real capture library,
// for the tests of tools built from source. Commits have fixed authors and dates, so their ids (and the
// cached builds keyed by them) are the same on every run of the suite.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { FIXTURES, resnet18Subject, ROOT, tmpdir } from '../helpers.ts';

export const HOOKKIT = path.join(FIXTURES, 'sources/hookkit');

const IDENTITY = {
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.org',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.org',
};

/** Runs git in `repo` with a fixed identity and date; returns stdout. */
export async function git(repo: string, args: string[], date = '2026-01-01T00:00:00Z'): Promise<string> {
  const r = await execa('git', ['-C', repo, ...args], {
    env: { ...IDENTITY, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
  return r.stdout;
}

/** Copies hookkit into `dir` and commits it on `main`; returns the commit id. */
export async function makeToolRepo(dir: string): Promise<string> {
  fs.cpSync(HOOKKIT, dir, { recursive: true });
  await git(dir, ['init', '-q', '-b', 'main']);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'hookkit 1.0.0']);
  return git(dir, ['rev-parse', 'HEAD']);
}

/**
 * A branch (`slow` by default) whose commit makes every call of hookkit spin, after its forward pass, for
 * `extra` times as long as that forward took (3 by default: the same work, four times the time, however
 * the machine drifts; bench/change-campaign.ts commits 0.1, a 10% slowdown). Returns the commit id.
 */
export async function commitSlowdown(repo: string, opts: { extra?: number; branch?: string } = {}): Promise<string> {
  const extra = opts.extra ?? 3;
  if (!(extra > 0 && extra < 100)) throw new Error(`commitSlowdown: extra must be in (0, 100), not ${extra}`);
  await git(repo, ['checkout', '-q', '-b', opts.branch ?? 'slow']);
  const core = path.join(repo, 'hookkit/_core.py');
  const text = fs
    .readFileSync(core, 'utf8')
    .replace(
      '"""The hooks themselves."""\n',
      `"""The hooks themselves."""\n\nimport time\n\n\ndef _settle(started):\n    until = time.perf_counter() + ${extra} * (time.perf_counter() - started)\n    while time.perf_counter() < until:\n        pass\n`,
    )
    .replace('    kept = []\n    handle', '    kept = []\n    started = time.perf_counter()\n    handle')
    .replace('    return kept[0], result', '    _settle(started)\n    return kept[0], result')
    .replace(
      '    handle = module.register_forward_hook(hook)\n    try:\n        return model(*inputs)\n    finally:\n        handle.remove()',
      '    started = time.perf_counter()\n    handle = module.register_forward_hook(hook)\n    try:\n        return model(*inputs)\n    finally:\n        handle.remove()\n        _settle(started)',
    );
  if (!text.includes('_settle(started)\n    return kept[0]') || !text.includes('        _settle(started)'))
    throw new Error('the slowdown patch no longer applies to hookkit/_core.py');
  fs.writeFileSync(core, text);
  await git(repo, ['commit', '-q', '-am', 'hookkit: settle after every forward'], '2026-01-02T00:00:00Z');
  const commit = await git(repo, ['rev-parse', 'HEAD']);
  await git(repo, ['checkout', '-q', 'main']);
  return commit;
}

// The project's main environment, so that a run finds it built (.ci/run builds it) and only the
// source layers have to be built.
const MAIN = parse(fs.readFileSync(path.join(ROOT, 'specs/resnet18_gpu.yaml'), 'utf8')).environments.main
  .requirements as string[];

/**
 * Writes a spec measuring hookkit beside forward hooks (the reference) on a ResNet-18 with 32x32 inputs,
 * with the hookkit runner copied beside it; returns the spec's path. `raw` adds the plain forward.
 */
export function writeSourcedSpec(dir: string, opts: { protocol: string; raw: boolean }): string {
  fs.cpSync(path.join(FIXTURES, 'runners/sourced'), path.join(dir, 'runner'), { recursive: true });
  const tools = opts.raw ? '[raw, hooks, hookkit]' : '[hooks, hookkit]';
  const spec = `benchgrid: 1
name: sourced
title: a tool built from source
device: cpu
protocol: ${opts.protocol}
environments:
  main: ${JSON.stringify({ requirements: MAIN })}
runners: { sourced: runner }
subjects:
${resnet18Subject()}
contracts:
  single_module_output: { site: layer2 }
  matched_retained: { site: layer2 }
  replacement_edit: { site: layer2 }
tools:
  raw: { label: plain forward }
  hooks: { label: forward hooks }
  hookkit: { label: "hookkit {version}", runner: sourced }
groups:
  A: { reference: hooks, subjects: [resnet18], contracts: [single_module_output, matched_retained, replacement_edit], tools: ${tools} }
`;
  const file = path.join(dir, 'sourced.yaml');
  fs.writeFileSync(file, spec);
  return file;
}

/** A fresh folder holding the sourced spec (without raw) and hookkit committed in `hookkit/` beside it. */
export async function sourcedWorkspace(
  protocol: string,
): Promise<{ dir: string; spec: string; repo: string; commit: string }> {
  const dir = tmpdir();
  const spec = writeSourcedSpec(dir, { protocol, raw: false });
  const repo = path.join(dir, 'hookkit');
  return { dir, spec, repo, commit: await makeToolRepo(repo) };
}
