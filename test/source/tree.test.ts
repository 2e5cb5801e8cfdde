// The files of a source tree as a build sees them: a checked-out git submodule's files in place of the one
// entry git lists for it (a directory, which the digest once opened as a file: EISDIR), and a special file
// refused in words instead of read.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { digestFiles, gitFiles } from '../../src/source/tree.ts';
import { tmpdir, write } from '../helpers.ts';
import { git } from './tool-repo.ts';

describe('a source tree in git', () => {
  it("lists a checked-out submodule's files under its path, and digests them", async () => {
    const lib = path.join(tmpdir(), 'lib');
    write(lib, 'vendored.py', 'X = 1\n');
    await git(lib, ['init', '-q', '-b', 'main']);
    await git(lib, ['add', '-A']);
    await git(lib, ['commit', '-q', '-m', 'lib']);
    const repo = path.join(tmpdir(), 'tool');
    write(repo, 'pyproject.toml', '[project]\nname = "tool"\nversion = "1"\n');
    await git(repo, ['init', '-q', '-b', 'main']);
    await git(repo, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'third_party/lib']);
    await git(repo, ['commit', '-q', '-m', 'with a submodule']);
    const files = await gitFiles(repo);
    expect(files).toEqual(['.gitmodules', 'pyproject.toml', 'third_party/lib/vendored.py']);
    expect(digestFiles(repo, files, 'x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a named pipe where a tracked file was, naming it', async () => {
    const repo = path.join(tmpdir(), 'tool');
    write(repo, 'pyproject.toml', '[project]\nname = "tool"\nversion = "1"\n');
    write(repo, 'data.txt', 'x\n');
    await git(repo, ['init', '-q', '-b', 'main']);
    await git(repo, ['add', '-A']);
    await git(repo, ['commit', '-q', '-m', 'tool']);
    fs.rmSync(path.join(repo, 'data.txt'));
    await execa('mkfifo', [path.join(repo, 'data.txt')]);
    await expect(gitFiles(repo)).rejects.toThrow(/data\.txt: not a regular file \(a named pipe\)/);
  });
});
