// A new tool, from nothing: `benchgrid tools` lists what exists, `init --tool` writes a runner that
// validates and whose first cell runs for real (bit-exact against forward hooks), and the worked example
// of docs/adding-a-tool.md (torchextractor, a runner of its spec's own) validates and measures.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.ts';
import { loadResults } from '../../src/results/load.ts';
import { cli, FIXTURES, resnet18Subject, ROOT, testPython, tmpdir, write } from '../helpers.ts';

const SPEC = (runner: string) => `benchgrid: 1
name: mine
title: Mine
device: cpu
protocol: { warmups: 1, samples: 2, processes: 1, min_samples: 1, budget_s_per_cell: 5, memory_runs: 0, aa_pairs: 0, timeout_s: 120 }
${runner}subjects:
${resnet18Subject(', stimuli: 4, batch_size: 2')}
contracts:
  single_module_output: { site: layer2 }
tools:
  hooks: {}
  mytool: { runner: mytool }
groups:
  A:
    reference: hooks
    subjects: [resnet18]
    contracts: [single_module_output]
    tools: [hooks, mytool]
`;

describe('benchgrid tools', () => {
  it("lists every built-in adapter with its library and contracts, and a spec's own runner with it", async () => {
    const r = await cli(['tools', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout).adapters as {
      runner: string;
      adapter: string;
      library: string | null;
      contracts: string[];
      origin: string;
    }[];
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'runners/torch/manifest.json'), 'utf8'));
    expect(list.filter((t) => t.origin === 'builtin').map((t) => t.adapter)).toEqual(Object.keys(manifest.adapters));
    expect(list.find((t) => t.adapter === 'nnsight')).toMatchObject({
      runner: 'torch',
      library: 'nnsight',
      contracts: manifest.adapters.nnsight.contracts,
    });
    const spec = await cli(['tools', path.join(ROOT, 'specs/torchextractor_cpu.yaml')]);
    expect(spec.code, spec.stderr).toBe(0);
    // lines wrap at the terminal's width: read the text with its line breaks folded
    const text = spec.stdout.replace(/\s+/g, ' ');
    expect(spec.stdout).toMatch(
      /\nRunner torchextractor \(the spec's own\)\n  torchextractor: library torchextractor, pinned 0\.3\.0/,
    );
    expect(text).toMatch(
      /torchextractor: library torchextractor, pinned 0\.3\.0;.* the spec's tool torchextractor implements 5:/,
    );
    // an adapter no tool is declared on: the release declaring one would measure (the default environment's pin)
    expect(text).toMatch(
      / nnsight: library nnsight, pinned 0\.8\.1; installed [^;]*; not declared in the spec implements \d+: single_module_output,/,
    );
  });

  it('lists, without a spec, the runner folders of the project in the current directory (specs/runners/*), and skips a broken one', async () => {
    const dir = tmpdir();
    fs.cpSync(path.join(FIXTURES, 'runners/faulty'), path.join(dir, 'specs/runners/mine'), { recursive: true });
    // hostile neighbours: a manifest that is not JSON, a plain file, and a folder without a manifest
    write(dir, 'specs/runners/broken/manifest.json', '{ not json');
    write(dir, 'specs/runners/a-file', 'x');
    fs.mkdirSync(path.join(dir, 'specs/runners/empty'));
    const sub = path.join(dir, 'specs/deeper');
    fs.mkdirSync(sub);
    for (const cwd of [dir, sub]) {
      const r = await cli(['tools', '--json'], { cwd });
      expect(r.code, r.stderr).toBe(0);
      const list = JSON.parse(r.stdout).adapters as { runner: string; origin: string; dir: string }[];
      const mine = list.filter((t) => t.runner === 'mine');
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((t) => t.origin === 'user-folder' && t.dir === path.join(dir, 'specs/runners/mine'))).toBe(
        true,
      );
      expect(list.map((t) => t.runner)).not.toContain('broken');
    }
    const text = await cli(['tools'], { cwd: dir });
    expect(text.stdout.replace(/\s+/g, ' ')).toContain(
      'Runner mine (a folder of yours, specs/runners/mine/, that no spec given here declares: declare it under runners: to use it)',
    );
    // this checkout's own example runner is listed from its root, without its spec
    const here = JSON.parse((await cli(['tools', '--json'])).stdout).adapters as { runner: string; origin: string }[];
    expect(here.find((t) => t.runner === 'torchextractor')).toMatchObject({ origin: 'user-folder' });
  });

  it('answers a group naming an adapter the spec did not declare with how to declare it', async () => {
    const tiny = fs
      .readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8')
      .replace('tools: [raw, hooks, tv_fx]', 'tools: [raw, hooks, tv_fx, torchlens]');
    const r = await cli(['validate', write(tmpdir(), 't.yaml', tiny.replace(/^# yaml-language-server.*\n/, ''))]);
    expect(r.stderr).toMatch(
      /unknown tool 'torchlens'\. Runner 'torch' has an adapter 'torchlens': declare it under tools: as `torchlens: \{ label: \.\.\. \}`\./,
    );
    const none = await cli([
      'validate',
      write(tmpdir(), 't.yaml', tiny.replace('torchlens]', 'zzz_nothing]').replace(/^# yaml-language-server.*\n/, '')),
    ]);
    expect(none.stderr).toMatch(
      /unknown tool 'zzz_nothing'\. Tools are declared under tools: \(declared here: raw, hooks, tv_fx, reference\); adapters available: raw, hooks, .*\(`benchgrid tools` lists their contracts\)\. To add your own: docs\/adding-a-tool\.md\./,
    );
  });
});

describe('benchgrid init --tool', () => {
  it('writes a runner beside the spec whose first cell runs, bit-exact against the reference', async () => {
    const dir = tmpdir();
    const spec = write(dir, 'specs/mine.yaml', SPEC('runners: { mytool: runners/mytool }\n'));
    const w = await cli(['init', '--tool', 'mytool', '--spec', spec], { cwd: dir });
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toMatch(
      /wrote specs\/runners\/mytool\/ \(manifest\.json, mytool_adapters\/mytool_\.py\)\. Add to specs\/mine\.yaml:\n\nrunners:\n  mytool: runners\/mytool\n/,
    );
    for (const f of ['manifest.json', 'mytool_adapters/__init__.py', 'mytool_adapters/mytool_.py'])
      expect(fs.existsSync(path.join(dir, 'specs/runners/mytool', f)), f).toBe(true);
    expect((await cli(['init', '--tool', 'mytool', '--spec', spec], { cwd: dir })).code).toBe(EXIT.usage);
    const v = await cli(['validate', spec], { cwd: dir });
    expect(v.code, v.stderr).toBe(0);
    const out = path.join(dir, 'run');
    const r = await cli(['run', spec, '--out', out, '--python', await testPython()], { cwd: dir, timeout: 300_000 });
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(loadResults(path.join(out, 'results.json')).cells.find((c) => c.tool === 'mytool')).toMatchObject({
      status: 'ok',
      exact: 'bit',
    });
  }, 300_000);

  it('says so when --spec names no file yet, with the command that writes the starter spec there', async () => {
    const dir = tmpdir();
    const w = await cli(['init', '--tool', 'mytool', '--library', 'my-tool', '--spec', 'specs/new.yaml'], { cwd: dir });
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toContain(
      'specs/new.yaml does not exist yet: `benchgrid init specs/new.yaml` writes a starter spec there',
    );
    expect(fs.existsSync(path.join(dir, 'specs/runners/mytool/manifest.json'))).toBe(true);
    expect((await cli(['init', 'specs/new.yaml'], { cwd: dir })).code).toBe(0);
    const again = await cli(['init', '--tool', 'other', '--spec', 'specs/new.yaml'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('does not exist yet');
  });

  it('refuses a name that is not a Python package name or a library that is not a distribution name', async () => {
    const dir = tmpdir();
    for (const args of [
      ['--tool', '../evil'],
      ['--tool', 'Bad-Name'],
      ['--tool', 'ok', '--library', 'x; rm -rf /'],
    ]) {
      const r = await cli(['init', ...args], { cwd: dir });
      expect(r.code, args.join(' ')).toBe(EXIT.usage);
    }
    expect(fs.existsSync(path.join(dir, 'specs'))).toBe(false);
  });

  it("a runner folder put in runners/ is the user's: declared like any other, never refused as a built-in", async () => {
    const folder = path.join(ROOT, 'runners', `zz_test_${process.pid}`);
    try {
      fs.cpSync(path.join(FIXTURES, 'runners/faulty'), folder, { recursive: true });
      const spec = write(
        tmpdir(),
        'mine.yaml',
        SPEC(`runners: { mytool: ${folder} }\n`).replace(
          'mytool: { runner: mytool }',
          'mytool: { runner: mytool, adapter: chatty }',
        ),
      );
      const r = await cli(['validate', spec], { env: { BENCHGRID_ALLOW_DIRS: '' } });
      expect(r.code, r.stderr).toBe(0);
      const undeclared = write(
        tmpdir(),
        'mine.yaml',
        SPEC('').replace('mytool: { runner: mytool }', `mytool: { runner: ${path.basename(folder)}, adapter: chatty }`),
      );
      const u = await cli(['validate', undeclared]);
      expect(u.stderr).toMatch(
        new RegExp(
          `unknown runner '${path.basename(folder)}'\\. .*is a runner folder of yours: declare it in the spec`,
        ),
      );
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the worked example of docs/adding-a-tool.md', () => {
  it('quotes the example as it is in the repository: the manifest whole, the adapter and spec lines verbatim', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/adding-a-tool.md'), 'utf8');
    const blocks = [...doc.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));
    const runner = path.join(ROOT, 'specs/runners/torchextractor');
    const manifest = blocks.find((b) => b.lang === 'json')!;
    expect(JSON.parse(manifest.text)).toEqual(JSON.parse(fs.readFileSync(path.join(runner, 'manifest.json'), 'utf8')));
    const adapter = fs.readFileSync(path.join(runner, 'torchextractor_adapters/torchextractor_.py'), 'utf8');
    const spec = fs.readFileSync(path.join(ROOT, 'specs/torchextractor_cpu.yaml'), 'utf8');
    const quoted = (b: { lang: string }) => (b.lang === 'python' ? adapter : b.lang === 'yaml' ? spec : null);
    for (const b of blocks.filter((x) => quoted(x) !== null)) {
      for (const line of b.text.split('\n').filter((l) => l.trim() && l.trim() !== '...'))
        expect(quoted(b)!, `${b.lang}: ${line}`).toContain(line.trimEnd());
    }
  });

  it('validates, and its torchextractor cell measures bit-exact against forward hooks', async () => {
    const spec = path.join(ROOT, 'specs/torchextractor_cpu.yaml');
    const v = await cli(['validate', spec]);
    expect(v.code, v.stderr).toBe(0);
    const out = path.join(tmpdir(), 'run');
    const r = await cli(['run', spec, '--only', 'A/single_module_output/*/*', '--processes', '1', '--out', out], {
      timeout: 500_000,
    });
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(
      loadResults(path.join(out, 'results.json')).cells.find((c) => c.tool === 'torchextractor@0.3.0'),
    ).toMatchObject({ status: 'ok', exact: 'bit', tool_version: '0.3.0' });
    // One process: the paired ratio has no interval over processes, so the answer gives the ratio alone.
    expect(r.stderr).toMatch(/\n {2}torchextractor@0\.3\.0: \d+\.\d\dx raw(?: \(\d+\.\d\d-\d+\.\d\d\))?, bit\n/);
  }, 500_000);
});
