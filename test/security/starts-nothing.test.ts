// validate, plan, diff and env list read a spec and start nothing: not the interpreter it names, not a
// program found on PATH, not pip. Every program they could reach is planted here as a script that leaves a
// marker: a copy of /bin/sh named `python` in the spec's tree (sh reads `python -m pip` as "run ./pip"), a
// `pip` beside it, and python, python3, pip, git and uv first on PATH. A requirement naming a directory
// whose build script would leave one is refused before anything could build it.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';

let dir: string;
let bin: string;
let env: Record<string, string>;

const markers = () => fs.readdirSync(dir).filter((f) => f.startsWith('STARTED-'));

beforeAll(() => {
  dir = tmpdir('benchgrid-starts-nothing-');
  fs.copyFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), path.join(dir, 'tiny.yaml'));
  bin = path.join(dir, 'bin');
  for (const name of ['python', 'python3', 'pip', 'pip3', 'git', 'uv']) {
    fs.chmodSync(
      write(bin, name, `#!/bin/sh\ntouch ${JSON.stringify(path.join(dir, `STARTED-path-${name}`))}\n`),
      0o755,
    );
  }
  fs.chmodSync(write(dir, 'pip', `#!/bin/sh\ntouch ${JSON.stringify(path.join(dir, 'STARTED-planted-pip'))}\n`), 0o755);
  fs.mkdirSync(path.join(dir, 'pr'));
  fs.copyFileSync('/bin/sh', path.join(dir, 'pr', 'python'));
  fs.chmodSync(path.join(dir, 'pr', 'python'), 0o755);
  write(
    dir,
    'build-me/setup.py',
    `open(${JSON.stringify(path.join(dir, 'STARTED-setup-py'))}, "w").close()\nfrom setuptools import setup\nsetup(name="build-me", version="1")\n`,
  );
  const spec = (python: string, reqs: string[]) =>
    `benchgrid: 1\nextends: tiny.yaml\nenvironments:\n  main: { default: true, python: ${JSON.stringify(python)}, requirements: ${JSON.stringify(reqs)} }\n`;
  write(dir, 'planted.yaml', spec(path.join(dir, 'pr', 'python'), ['tqdm==4.67.1']));
  write(dir, 'planted2.yaml', spec(path.join(dir, 'pr', 'python'), ['tqdm==4.67.0']));
  write(dir, 'shell.yaml', spec('/bin/sh', ['tqdm==4.67.1']));
  write(dir, 'source.yaml', spec('python3', [`build-me @ file://${path.join(dir, 'build-me')}`]));
  env = { PATH: `${bin}:${process.env.PATH}`, BENCHGRID_CACHE: path.join(dir, 'cache') };
});

describe('the commands that read a spec', () => {
  it.each([
    [['validate', 'planted.yaml']],
    [['plan', 'planted.yaml']],
    [['plan', 'planted.yaml', '--json']],
    [['diff', 'planted.yaml', 'planted2.yaml']],
    [['env', 'list', 'planted.yaml']],
  ])('%j starts no program the spec or PATH offers', async (args) => {
    const r = await cli(args, { cwd: dir, env });
    expect([0, 4], r.stderr).toContain(r.code);
    expect(markers()).toEqual([]);
  });

  it("plan says what it did not ask, and --sizes asks no interpreter from the spec's tree and no shell", async () => {
    const plain = await cli(['plan', 'planted.yaml'], { cwd: dir, env });
    expect(plain.stdout.replace(/\s+/g, ' ')).toContain(
      '1 requirement, download size not asked (plan --sizes asks pip)',
    );
    const sized = await cli(['plan', 'planted.yaml', '--sizes'], { cwd: dir, env });
    expect(sized.code, sized.stderr).toBe(0);
    expect(sized.stdout.replace(/\s+/g, ' ')).toMatch(
      /download size unknown \(not asked: the environment's python .*pr\/python lies in the spec's own directory/,
    );
    const shell = await cli(['plan', 'shell.yaml', '--sizes'], { cwd: dir, env });
    expect(shell.stdout.replace(/\s+/g, ' ')).toMatch(
      /not asked: the environment's python \/bin\/sh is not named like a Python interpreter/,
    );
    expect(markers()).toEqual([]);
  });

  it('refuses a requirement that names a directory to build, in validate and plan alike, building nothing', async () => {
    for (const command of ['validate', 'plan']) {
      const r = await cli([command, 'source.yaml'], { cwd: dir, env });
      expect([r.code, r.stderr]).toEqual([
        2,
        expect.stringMatching(
          /source\.yaml:\d+:\d+ environments\.main\.requirements\[0\]: requirement 'build-me @ file:\/\/.*' names a source \(file:\.\.\.\)/,
        ),
      ]);
    }
    expect(markers()).toEqual([]);
  });
});
