// A run directory is input from elsewhere: `run --resume DIR` takes its journal's records and its
// header's selection and digest, but never starts an interpreter the header names, reads a spec the
// header names only under checks (and then never quotes it), and refuses a directory holding links.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/validate/load.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
let dir: string;
let digest: string;

beforeAll(async () => {
  dir = tmpdir('benchgrid-resume-');
  digest = (await loadSpec(TINY)).spec!.digest;
});

/** A run directory whose journal holds only a header, with `edit` applied to it. */
function runDir(name: string, edit: (h: Record<string, any>) => void = () => {}): string {
  // eslint-disable-line @typescript-eslint/no-explicit-any -- a header edited by path
  const out = path.join(dir, name);
  const header: Record<string, any> = {
    type: 'header',
    v: 1,
    spec: { name: 'tiny', digest, file: TINY },
    device: 'cpu',
    only: 'A/single_module_output/raw/*',
    cells: null,
    schedule: { kind: 'sequential', seed: 1 },
    overrides: { processes: 1 },
    python: null,
    start: 'cold',
    jobs: 1,
    started: '2026-12-01T00:00:00.000Z',
  }; // eslint-disable-line @typescript-eslint/no-explicit-any
  edit(header);
  write(out, 'journal.jsonl', JSON.stringify(header) + '\n');
  return out;
}

/** A script that leaves a file behind if anything starts it. */
function trap(name: string): { script: string; touched: string } {
  const touched = path.join(dir, `${name}-PWNED`);
  const script = write(dir, `${name}.sh`, `#!/bin/sh\ntouch ${JSON.stringify(touched)}\nexit 1\n`);
  fs.chmodSync(script, 0o755);
  return { script, touched };
}

describe('run --resume never starts an interpreter its directory names', () => {
  it('a header whose python is a script: refused, asking for --python; the script never runs', async () => {
    const { script, touched } = trap('python');
    const out = runDir('python-script', (h) => {
      h.python = script;
    });
    const r = await cli(['run', TINY, '--resume', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /this run was started with --python ".*python\.sh"; a resume does not start an interpreter its run directory names\. Give it again: benchgrid run --resume .* --python /,
    );
    expect(fs.existsSync(touched)).toBe(false);
  });

  it('the same with the spec taken from the header', async () => {
    const { script, touched } = trap('python2');
    const out = runDir('python-script-2', (h) => {
      h.python = script;
    });
    const r = await cli(['run', '--resume', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(fs.existsSync(touched)).toBe(false);
  });
});

describe('run --resume and the spec its header names', () => {
  it('a spec file elsewhere that does not load: refused without quoting it', async () => {
    const secret = write(dir, 'secret.yaml', 'root_password_hunter2: yes\nAKIA_SECRET_TOKEN: 1234\n');
    const out = runDir('secret-spec', (h) => {
      h.spec.file = secret;
    });
    const r = await cli(['run', '--resume', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /the spec the journal names, .*secret\.yaml, does not load \(\d+ errors?, not shown because the run directory chose that file\)/,
    );
    expect(r.stderr).not.toMatch(/hunter2|AKIA/);
  });

  it.each([
    ['/etc/passwd', /is not an absolute path to a \.yaml file/],
    ['specs/tiny.yaml', /is not an absolute path to a \.yaml file/],
    ['/nonexistent/x.yaml', /is not a file here/],
  ])('a header naming %s is refused before anything is read', async (file, pattern) => {
    const out = runDir(`named-${path.basename(file)}-${Math.random().toString(36).slice(2)}`, (h) => {
      h.spec.file = file;
    });
    const r = await cli(['run', '--resume', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/root:x:0/);
  });

  it('a spec inside the run directory itself is refused', async () => {
    const out = runDir('inside');
    const inner = write(out, 'spec.yaml', fs.readFileSync(TINY, 'utf8'));
    const header = JSON.parse(fs.readFileSync(path.join(out, 'journal.jsonl'), 'utf8'));
    header.spec.file = inner;
    fs.writeFileSync(path.join(out, 'journal.jsonl'), JSON.stringify(header) + '\n');
    const r = await cli(['run', '--resume', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/names a spec inside the run directory/);
  });

  it('the header of a run benchgrid started resumes from its own spec file (nothing left to run)', async () => {
    const out = runDir('legit', (h) => {
      h.cells = [];
      h.only = null;
    });
    const r = await cli(['run', '--resume', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(out, 'results.json'))).toBe(true);
  });
});

describe('run --resume of a directory holding a symbolic link', () => {
  it('is refused, and the file the link points to is untouched', async () => {
    const outside = write(tmpdir('benchgrid-outside-'), 'victim.txt', 'keep me\n');
    const out = runDir('linked');
    fs.mkdirSync(path.join(out, 'processes'));
    fs.symlinkSync(path.dirname(outside), path.join(out, 'processes', 'A+single_module_output+raw+resnet18'));
    const r = await cli(['run', '--resume', out, '--python', '/usr/bin/python3']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/is a symbolic link; a run directory benchgrid wrote holds none/);
    expect(fs.readdirSync(path.dirname(outside))).toEqual(['victim.txt']);
  });

  it('a journal that is a link out of the directory is not read', async () => {
    const elsewhere = write(
      tmpdir('benchgrid-outside-'),
      'journal.jsonl',
      fs.readFileSync(path.join(runDir('source'), 'journal.jsonl')),
    );
    const out = path.join(dir, 'journal-link');
    fs.mkdirSync(out);
    fs.symlinkSync(elsewhere, path.join(out, 'journal.jsonl'));
    const r = await cli(['run', '--resume', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/symbolic link/);
  });
});

describe('a resume builds no tool source its run directory chose', () => {
  /** A package whose build leaves a file behind, inside the run directory `out`. */
  function plantedPackage(out: string): string {
    const touched = path.join(out, 'BUILT');
    write(
      path.join(out, 'pkg'),
      'setup.py',
      `open(${JSON.stringify(touched)}, 'w').close()\nfrom setuptools import setup\nsetup(name='hookkit')\n`,
    );
    return touched;
  }

  for (const [what, source] of [
    ['a path inside the run directory', (out: string) => path.join(out, 'pkg')],
    ['a relative path', () => 'pkg'],
    ['a git repository inside it', (out: string) => `git:${out}/pkg@HEAD`],
  ] as const) {
    it(`run --resume: ${what} is refused before anything is built`, async () => {
      const out = runDir(`source-${what.replace(/\W+/g, '-')}`, (h) => {
        h.tool_sources = [{ tool: 'hooks', side: null, source: '', digest: null }];
      });
      const touched = plantedPackage(out);
      const header = JSON.parse(fs.readFileSync(path.join(out, 'journal.jsonl'), 'utf8')) as {
        tool_sources: { source: string }[];
      };
      header.tool_sources[0].source = source(out);
      fs.writeFileSync(path.join(out, 'journal.jsonl'), JSON.stringify(header) + '\n');
      const r = await cli(['run', TINY, '--resume', out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('a resume does not build code its run directory chose');
      expect(fs.existsSync(touched)).toBe(false);
    });
  }

  it('bench-change --resume: the same refusal', async () => {
    const out = runDir('bench-change-source', (h) => {
      h.change = { tool: 'hooks', only: null };
      h.tool_sources = [
        { tool: 'hooks', side: 'base', source: 'pinned', digest: null },
        { tool: 'hooks', side: 'head', source: 'pkg', digest: null },
      ];
    });
    const touched = plantedPackage(out);
    const r = await cli(['bench-change', '--resume', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('a resume does not build code its run directory chose');
    expect(fs.existsSync(touched)).toBe(false);
  });
});
