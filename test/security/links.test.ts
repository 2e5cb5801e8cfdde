// Readers of a results tree (history, report, compare, ratios, ingest) do not follow a symbolic link
// out of the tree, nor crash on a dangling one; history never copies a stored page (it draws each run's
// report from its results); and every writer replaces a path instead of writing through a link there.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeRuns } from '../fixtures/history/runs.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';
import { exportTinyBundle } from '../helpers/tiny-bundle.ts';
import { writeTinyResults } from '../report/tiny-results.ts';

const SECRET = 'SECRET-OUTSIDE-THE-TREE';
let outside: string;
let victim: string;

beforeAll(() => {
  outside = tmpdir('benchgrid-outside-');
  victim = write(outside, 'victim.html', `<p>${SECRET}</p>\n`);
});

/** A results tree of two runs of one spec; returns the tree and its runs. */
function tree(): { root: string; runs: string[] } {
  const root = path.join(tmpdir('benchgrid-links-'), 'results');
  const runs = writeRuns(root, 'spec', { 'A/single_module_output/hooks/resnet18': [10, 10.1] }, 3);
  return { root, runs };
}

/** Every regular file under a directory, relative. */
function filesUnder(d: string): string[] {
  return fs
    .readdirSync(d, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(d, path.join(e.parentPath, e.name)))
    .sort();
}

describe('history reads a results tree without leaving it', () => {
  it("a run's report.html that links to a file elsewhere is not copied into the site", async () => {
    const { root, runs } = tree();
    fs.symlinkSync(victim, path.join(runs[0], 'report.html'));
    const site = path.join(path.dirname(root), 'site');
    const r = await cli(['history', root, '--out', site]);
    expect(r.code, r.stderr).toBe(0);
    for (const f of filesUnder(site)) expect(fs.readFileSync(path.join(site, f), 'utf8')).not.toContain(SECRET);
  });

  it('a stored page with a script is not copied: each report is drawn from its results', async () => {
    const { root, runs } = tree();
    fs.writeFileSync(path.join(runs[0], 'report.html'), '<html><script>alert("stored")</script></html>');
    const site = path.join(path.dirname(root), 'site');
    const r = await cli(['history', root, '--out', site]);
    expect(r.code, r.stderr).toBe(0);
    const reports = filesUnder(site).filter((f) => f.endsWith('report.html'));
    expect(reports).toHaveLength(2);
    for (const f of reports) {
      const html = fs.readFileSync(path.join(site, f), 'utf8');
      expect(html).not.toContain('alert("stored")');
      expect(html).toContain('Content-Security-Policy');
    }
  });

  it('a dangling link and a link to a run outside the tree are skipped with a warning, not a crash', async () => {
    const { root } = tree();
    fs.symlinkSync('/nonexistent/run', path.join(root, 'spec', 'dangling'));
    const far = tree();
    fs.symlinkSync(far.runs[0], path.join(root, 'spec', 'borrowed'));
    fs.symlinkSync(victim, path.join(root, 'spec', 'not-a-dir'));
    const site = path.join(path.dirname(root), 'site');
    const r = await cli(['history', root, '--out', site]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: skipped .*dangling: it is a symbolic link to nothing/);
    expect(r.stderr).toMatch(/warning: skipped .*borrowed: it is a symbolic link leading outside/);
    expect(r.stderr).toMatch(/2 run\(s\)/);
  });

  it('a results.json that links out of its run is skipped; a `latest` link inside the tree is fine', async () => {
    const { root, runs } = tree();
    fs.rmSync(path.join(runs[1], 'results.json'));
    fs.symlinkSync(path.join(tree().runs[0], 'results.json'), path.join(runs[1], 'results.json'));
    fs.symlinkSync(path.basename(runs[0]), path.join(root, 'spec', 'latest'));
    const r = await cli(['history', root, '--out', path.join(path.dirname(root), 'site')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/results\.json: it is a symbolic link leading outside/);
    expect(r.stderr).toMatch(/1 run\(s\)/);
  });
});

describe('history writes its site by replacing paths, never through a planted link', () => {
  it('index.html, a run folder and a report that are links elsewhere are replaced; their targets are untouched', async () => {
    const { root } = tree();
    const site = path.join(path.dirname(root), 'site');
    fs.mkdirSync(path.join(site, 'runs'), { recursive: true });
    fs.symlinkSync(victim, path.join(site, 'index.html'));
    const victimDir = tmpdir('benchgrid-victim-dir-');
    fs.symlinkSync(victimDir, path.join(site, 'runs', `000-${fs.readdirSync(path.join(root, 'spec')).sort()[0]}`));
    const r = await cli(['history', root, '--out', site]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe(`<p>${SECRET}</p>\n`);
    expect(fs.readdirSync(victimDir)).toEqual([]);
    expect(fs.lstatSync(path.join(site, 'index.html')).isFile()).toBe(true);
    expect(filesUnder(site).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('report, compare and ratios --out replace a link there instead of writing through it', async () => {
    const results = writeTinyResults(tmpdir('benchgrid-links-'));
    for (const args of [
      ['report', results, '--format', 'markdown'],
      ['compare', results, results],
      ['ratios', results, results, '--base', 'hooks', '--tools', 'all'],
    ]) {
      const out = path.join(outside, `out-${args[0]}.txt`);
      const target = write(outside, `target-${args[0]}.txt`, 'untouched\n');
      fs.symlinkSync(target, out);
      const r = await cli([...args, '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      expect(fs.readFileSync(target, 'utf8')).toBe('untouched\n');
      expect(fs.lstatSync(out).isFile()).toBe(true);
    }
  });
});

describe('report, compare and ratios on a run directory', () => {
  it('refuse a results.json that links out of the directory, without quoting what it points to', async () => {
    const run = tmpdir('benchgrid-links-run-');
    const secret = write(outside, 'shadow', `root:${SECRET}:19000:0:99999:7:::\n`);
    fs.symlinkSync(secret, path.join(run, 'results.json'));
    for (const args of [
      ['report', run],
      ['compare', run, run],
      ['ratios', run, run],
    ]) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/results\.json is a symbolic link leading outside/);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    }
  });

  it('a file that is not JSON is refused without quoting its first characters', async () => {
    const secret = write(outside, 'not-json', `root:${SECRET}\n`);
    const r = await cli(['report', secret]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a results file: invalid JSON/);
    expect(r.stderr).not.toContain('root:');
  });
});

describe('ingest does not read a bundle file that links out of the bundle', () => {
  it('spec.json, bundle.json or journal.jsonl as a link elsewhere is refused', async () => {
    const pristine = await exportTinyBundle(
      path.join(tmpdir('benchgrid-links-bundle-'), 'bundle'),
      'A/single_module_output/raw/*',
    );
    for (const name of ['spec.json', 'bundle.json', 'journal.jsonl']) {
      const b = path.join(tmpdir('benchgrid-links-bundle-'), 'bundle');
      fs.cpSync(pristine, b, { recursive: true });
      const target = write(
        outside,
        `bundle-${name}`,
        fs.existsSync(path.join(b, name)) ? fs.readFileSync(path.join(b, name)) : '',
      );
      fs.rmSync(path.join(b, name), { force: true });
      fs.symlinkSync(target, path.join(b, name));
      const r = await cli(['ingest', b, '--partial', '--out', path.join(b, 'out')]);
      expect(r.code, `${name}\n${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`${name.replace('.', '\\.')} is a symbolic link leading outside`));
    }
  }, 120_000);
});

describe("a spec's runner manifest", () => {
  const spec = (root: string) => {
    fs.mkdirSync(path.join(root, 'runners', 'mine'), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), path.join(root, 'tiny.yaml'));
    return write(
      root,
      'own.yaml',
      'benchgrid: 1\nextends: tiny.yaml\nrunners: { mine: runners/mine }\ntools:\n  mytool: { label: mine, runner: mine }\ngroups:\n  A: { tools: [raw, hooks, tv_fx, mytool] }\n',
    );
  };

  it('that links to a token outside the tree is refused without reading it, and one that is not JSON without quoting it', async () => {
    const token = write(outside, 'token.txt', `ghp_${SECRET}\n`);
    const linked = tmpdir('benchgrid-links-manifest-');
    fs.symlinkSync(token, path.join(path.dirname(spec(linked)), 'runners', 'mine', 'manifest.json'));
    const a = await cli(['validate', path.join(linked, 'own.yaml')]);
    expect([a.code, a.stderr]).toEqual([
      2,
      expect.stringContaining('manifest.json is a symbolic link leading outside'),
    ]);
    expect(a.stderr).not.toContain(SECRET);
    const plain = tmpdir('benchgrid-links-manifest-');
    write(path.dirname(spec(plain)), 'runners/mine/manifest.json', `ghp_${SECRET}\n`);
    const b = await cli(['validate', path.join(plain, 'own.yaml')]);
    expect([b.code, b.stderr]).toEqual([
      2,
      expect.stringContaining('not a runner manifest: invalid JSON (an unexpected character; the text is not shown)'),
    ]);
    expect(b.stderr).not.toContain(SECRET);
  });
});
