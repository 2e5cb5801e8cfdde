// The file-length rule, checked on the source itself: no file of code (TypeScript, JavaScript, Python, shell)
// in src/, runners/, scripts/, bench/, test/ or bin/ is longer than MAX_FILE_LINES lines, as the formatter leaves
// it (npm run format). A longer file holds more than one job: split it where its parts meet.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT, tmpdir, write } from './helpers.ts';

const MAX_FILE_LINES = 300;
const DIRS = ['src', 'runners', 'scripts', 'bench', 'test', 'bin'];
const CODE = /\.(ts|mjs|js|py|sh)$/;

/** Every code file git knows below the folders (tracked, or new and not ignored), relative to root. */
async function codeFiles(root: string): Promise<string[]> {
  const { stdout } = await execa('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...DIRS], {
    cwd: root,
  });
  return stdout.split('\n').filter((f) => CODE.test(f) && fs.existsSync(path.join(root, f)));
}

/** `file (N lines)` for every file over the limit. */
function longFiles(root: string, files: string[]): string[] {
  return files.flatMap((f) => {
    const text = fs.readFileSync(path.join(root, f), 'utf8');
    const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
    return lines > MAX_FILE_LINES ? [`${f} (${lines} lines)`] : [];
  });
}

describe('the file-length rule', () => {
  it(`has no code file over ${MAX_FILE_LINES} lines`, async () => {
    expect(longFiles(ROOT, await codeFiles(ROOT))).toEqual([]);
  });

  it('finds a long file in a repository made for the purpose, and names it', async () => {
    const dir = tmpdir();
    await execa('git', ['init', '-q'], { cwd: dir });
    write(dir, 'src/long.ts', 'export const x = 1;\n'.repeat(MAX_FILE_LINES + 1));
    write(dir, 'src/short.ts', 'export const y = 2;\n'.repeat(MAX_FILE_LINES));
    write(dir, 'docs/long.md', '# words\n'.repeat(MAX_FILE_LINES + 1));
    expect(longFiles(dir, await codeFiles(dir))).toEqual([`src/long.ts (${MAX_FILE_LINES + 1} lines)`]);
  });
});
