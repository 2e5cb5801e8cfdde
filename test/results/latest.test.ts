// The `latest` pointer of a spec's runs: a relative link to the newest run, replaced, never outside results/<spec>/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pointLatest } from '../../src/results/latest.ts';
import { tmpdir } from '../helpers.ts';

describe('latest pointer', () => {
  it('points results/<spec>/latest at the newest run with a relative link, replacing the old one', () => {
    const root = tmpdir();
    const a = path.join(root, 'tiny', '2026-11-30T10-00-00');
    const b = path.join(root, 'tiny', '2026-11-30T11-00-00');
    fs.mkdirSync(a, { recursive: true });
    fs.mkdirSync(b, { recursive: true });
    expect(pointLatest(a, 'tiny')).toBe(path.join(root, 'tiny', 'latest'));
    expect(pointLatest(b, 'tiny')).toBe(path.join(root, 'tiny', 'latest'));
    expect(fs.readlinkSync(path.join(root, 'tiny', 'latest'))).toBe('2026-11-30T11-00-00');
    expect(fs.realpathSync(path.join(root, 'tiny', 'latest'))).toBe(fs.realpathSync(b));
    expect(fs.readdirSync(path.join(root, 'tiny')).sort()).toEqual([
      '2026-11-30T10-00-00',
      '2026-11-30T11-00-00',
      'latest',
    ]);
  });

  it('leaves a run written elsewhere with --out alone', () => {
    const dir = path.join(tmpdir(), 'my-run');
    fs.mkdirSync(dir);
    expect(pointLatest(dir, 'tiny')).toBeNull();
    expect(fs.existsSync(path.join(path.dirname(dir), 'latest'))).toBe(false);
  });
});
