// Where commands write: never through a link a clone planted, site folders named so any file system takes
// them, and a place that cannot be written (read-only, full) ends in one line naming the path, exit 2 or 3,
// with nothing half-written.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { siteFolder } from '../../src/commands/history.ts';
import { writeRuns } from '../fixtures/history/runs.ts';
import { cli, FIXTURES, ROOT, tmpdir } from '../helpers.ts';
import { writeTinyResults } from '../report/tiny-results.ts';

const havePrlimit = fs.existsSync('/usr/bin/prlimit') || fs.existsSync('/bin/prlimit');
/** A directory this process cannot write into (as root too): /sys refuses new files. */
const readOnly = (() => {
  try {
    fs.writeFileSync('/sys/benchgrid-probe', '');
    return null;
  } catch {
    return '/sys';
  }
})();

describe('history names its site folders portably', () => {
  it('turns control characters, bidirectional marks, line breaks and a 255-byte name into plain folders its index links to', async () => {
    const root = path.join(tmpdir(), 'results');
    const runs = writeRuns(root, 'spec', { 'A/single_module_output/hooks/resnet18': [10, 10.1, 10.2] }, 3);
    const hostile = ['evil\u001b[2Jname\nwith break', 'bidi\u202emarks', 'x'.repeat(255)];
    runs.forEach((r, i) => fs.renameSync(r, path.join(path.dirname(r), hostile[i])));
    const site = path.join(path.dirname(root), 'site');
    const h = await cli(['history', root, '--out', site]);
    expect(h.code, h.stderr).toBe(0);
    const folders = fs.readdirSync(path.join(site, 'runs')).sort();
    expect(folders).toHaveLength(3);
    for (const f of folders) expect(f).toMatch(/^\d{3}-[A-Za-z0-9._-]{1,80}$/);
    const index = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
    for (const f of folders) {
      expect(index).toContain(`runs/${f}/report.html`);
      expect(fs.existsSync(path.join(site, 'runs', f, 'report.html'))).toBe(true);
    }
    expect(siteFolder('/r/.hidden', 7)).toBe('007-_hidden');
  }, 120_000);
});

describe("init --tool writes only inside the spec's tree", () => {
  it('refuses a runners/ folder that a clone planted as a link out of it, writing nothing there', async () => {
    const dir = tmpdir();
    const outside = tmpdir();
    fs.mkdirSync(path.join(dir, 'specs'));
    fs.symlinkSync(outside, path.join(dir, 'specs', 'runners'));
    const r = await cli(['init', '--tool', 'mytool'], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringContaining("specs/runners is through a symbolic link, outside the spec's directory"),
    ]);
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});

describe.skipIf(readOnly === null)('a place that cannot be written', () => {
  it.each([
    ['init', () => ['init', `${readOnly}/x.yaml`]],
    ['report', (d: string) => ['report', d, '--out', `${readOnly}/r.html`]],
    ['compare', (d: string) => ['compare', d, d, '--out', `${readOnly}/c.md`]],
    ['history', (d: string) => ['history', path.dirname(d), '--out', `${readOnly}/site`]],
    [
      'export',
      () => [
        'export',
        path.join(FIXTURES, 'specs/tiny.yaml'),
        '--out',
        `${readOnly}/bundle`,
        '--only',
        'A/single_module_output/raw/*',
      ],
    ],
  ])('%s: exit 2, one line naming the path, no stack', async (_name, args) => {
    const run = path.join(tmpdir(), 'results', 'spec', 'run');
    writeTinyResults(run);
    const r = await cli(args(run));
    expect(r.code, r.stderr).toBe(2);
    // Warnings about the input may come first; the refusal is the last line, and there is no stack.
    expect(r.stderr.trim().split('\n').pop()).toMatch(
      new RegExp(
        `^benchgrid: cannot write ${readOnly}/\\S+: .*\\. Choose another place, or make this one writable\\.$`,
      ),
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe.skipIf(!havePrlimit)('a disk that fills up while a command writes', () => {
  const limited = (bytes: number, args: string[], cwd: string) =>
    execa('prlimit', [`--fsize=${bytes}`, process.execPath, path.join(ROOT, 'bin/benchgrid.js'), ...args], {
      cwd,
      reject: false,
      env: { NO_COLOR: '1' },
      stdin: 'ignore',
    });

  it('export: exit 3 naming the file, and no half bundle left behind', async () => {
    const dir = tmpdir();
    const r = await limited(
      200,
      ['export', path.join(FIXTURES, 'specs/tiny.yaml'), '--out', 'bundle', '--only', 'A/single_module_output/raw/*'],
      dir,
    );
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^benchgrid: cannot write .*bundle\/\S+: the file would be larger than this process may write \(EFBIG\)\. Nothing was left behind/,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('init --tool: exit 3 naming the file, no partial file', async () => {
    const dir = tmpdir();
    const r = await limited(100, ['init', '--tool', 'mytool'], dir);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^benchgrid: cannot write .*specs\/runners\/mytool\/manifest\.json: the file would be larger/,
    );
    const files = fs
      .readdirSync(path.join(dir, 'specs'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile());
    expect(files).toEqual([]);
  });
});
