// Bad input never produces a stack trace: one clear line naming the file and position, and exit 2.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tmpdir, write } from '../helpers.ts';

let dir: string;

beforeAll(() => {
  dir = tmpdir();
});

function expectOneCleanError(r: { code: number; stderr: string; stdout: string }, pattern: RegExp) {
  expect(r.code).toBe(2);
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?/); // no stack frames
  expect(r.stderr).not.toMatch(/internal error/);
  const lines = r.stderr.trim().split('\n');
  expect(lines[0]).toMatch(pattern);
  expect(lines[0]).toMatch(/^[^:]+:\d+:\d+/);
}

describe('validate refuses bad input with one clear line and exit 2', () => {
  it('a missing file', async () => {
    const r = await cli(['validate', path.join(dir, 'nope.yaml')]);
    expectOneCleanError(r, /nope\.yaml:1:1: no such file/);
  });

  it('a directory', async () => {
    const r = await cli(['validate', dir]);
    expectOneCleanError(r, /is a directory/);
  });

  it('an empty file', async () => {
    const r = await cli(['validate', write(dir, 'empty.yaml', '\n  \n')]);
    expectOneCleanError(r, /empty\.yaml:1:1: the file is empty/);
  });

  it('malformed YAML, with the line of the problem', async () => {
    const r = await cli(['validate', write(dir, 'bad.yaml', 'benchgrid: 1\nname: [unclosed\ntitle: x\n')]);
    expectOneCleanError(r, /bad\.yaml:\d+:\d+: /);
  });

  it('a tab-indented file', async () => {
    const r = await cli(['validate', write(dir, 'tabs.yaml', 'benchgrid: 1\nsubjects:\n\tresnet18: {}\n')]);
    expectOneCleanError(r, /tabs\.yaml:3:1: .*[Tt]ab.*Indent with spaces/);
  });

  it('a schedule that is not one of the two, at its line and column', async () => {
    const tiny = fs.readFileSync(
      path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/specs/tiny.yaml'),
      'utf8',
    );
    const file = write(
      dir,
      'schedule.yaml',
      tiny.replace(/^protocol: \{/m, 'protocol: { schedule: "random; rm -rf /", '),
    );
    const r = await cli(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /schedule\.yaml:7:\d+ protocol\.schedule: must be one of 'interleaved', 'sequential' \(got 'random; rm -rf \/'\)/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?/);
  });

  it('a file that is not UTF-8, with the offending byte', async () => {
    const r = await cli([
      'validate',
      write(dir, 'latin1.yaml', Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xe9, 0x0a])),
    ]);
    expectOneCleanError(r, /latin1\.yaml:1:7: the file is not valid UTF-8 \(byte 0xe9/);
  });

  it('an alias bomb', async () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${new Array(9).fill('*' + String.fromCharCode(96 + i)).join(',')}]`,
      );
    const r = await cli(['validate', write(dir, 'bomb.yaml', bomb.join('\n') + '\n')]);
    expectOneCleanError(r, /bomb\.yaml:1:1: .*alias/i);
  });

  it('a 50 MB file, without reading it', async () => {
    const file = path.join(dir, 'huge.yaml');
    const fd = fs.openSync(file, 'w');
    fs.ftruncateSync(fd, 50 * 1024 * 1024);
    fs.closeSync(fd);
    const r = await cli(['validate', file]);
    expectOneCleanError(r, /huge\.yaml:1:1: the file is 50\.0 MB; a spec may be at most 2 MB/);
  });

  it('duplicate keys, at the second one', async () => {
    const r = await cli(['validate', write(dir, 'dup.yaml', 'benchgrid: 1\nname: a\nname: b\n')]);
    expectOneCleanError(r, /dup\.yaml:3:1: .*unique.*Remove or rename one/);
  });

  it('a YAML document that is a list, not a spec', async () => {
    const r = await cli(['validate', write(dir, 'list.yaml', '- 1\n- 2\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/list\.yaml:1:1: must be object/);
  });
});
