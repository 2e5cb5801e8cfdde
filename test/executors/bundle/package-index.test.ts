// A bundle carries its environments' package indexes to the machine it is sent to when they are URLs, as the
// option lines of its requirements files; a directory of this machine cannot travel, so its export is refused.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planBundle, writeBundle } from '../../../src/executors/bundle/export.ts';
import { exportSelection } from '../../../src/executors/bundle/select.ts';
import { FIXTURES, tmpdir, write } from '../../helpers.ts';

/** The tiny spec with environment `main` given the index keys in `lines`. */
function spec(dir: string, lines: string[]): string {
  fs.copyFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), path.join(dir, 'tiny.yaml'));
  fs.mkdirSync(path.join(dir, 'wheels'), { recursive: true });
  return write(
    dir,
    'indexed.yaml',
    [
      'benchgrid: 1',
      'extends: tiny.yaml',
      'environments:',
      '  main:',
      '    requirements: [torch==2.14.1]',
      ...lines.map((l) => `    ${l}`),
      '',
    ].join('\n'),
  );
}

describe("a bundle's package indexes", () => {
  it('are written as the option lines of its requirements file, before the requirements', async () => {
    const dir = tmpdir();
    const x = await exportSelection(
      spec(dir, ['index_url: https://download.pytorch.org/whl/cpu', 'find_links: ["https://example.org/wheels/"]']),
      { only: 'A/single_module_output/*/*', processes: 1 },
    );
    const planned = planBundle({ ...x, shard: { index: 0, count: 1 } });
    writeBundle(path.join(dir, 'bundle'), planned, x.spec);
    const lines = fs
      .readFileSync(path.join(dir, 'bundle', 'requirements-main.txt'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    expect(lines).toEqual([
      '--index-url https://download.pytorch.org/whl/cpu',
      '--find-links https://example.org/wheels/',
      'torch==2.14.1',
    ]);
  });

  it.each([
    ['a directory path', 'find_links: [wheels]', 'find_links'],
    ['a file: URL', 'index_url: "file:///opt/wheels"', 'index_url'],
  ])('refuse an environment that names %s, before anything is written', async (_what, line, key) => {
    const dir = tmpdir();
    const x = await exportSelection(spec(dir, [line]), { only: 'A/single_module_output/*/*', processes: 1 });
    expect(() => planBundle({ ...x, shard: { index: 0, count: 1 } })).toThrow(
      new RegExp(
        `environment 'main' takes packages from \\S+ \\(its ${key}\\), a directory on this machine, and a bundle does not carry one\\. Export a spec whose environment names its indexes by https:// URL`,
      ),
    );
  });
});
