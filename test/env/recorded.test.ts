// What a run records of its environments (results.json `run.environments`), read from their markers.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedEnvironments } from '../../src/env/recorded.ts';
import { tmpdir } from '../helpers.ts';

describe('recordedEnvironments', () => {
  it("records each cached environment's installer and resolved set; an old marker or an interpreter outside the cache records none", async () => {
    const dir = tmpdir();
    const marker = (name: string, body: object) => {
      fs.mkdirSync(path.join(dir, name, 'bin'), { recursive: true });
      fs.writeFileSync(path.join(dir, name, 'benchgrid-env.json'), JSON.stringify(body));
      return path.join(dir, name, 'bin', 'python');
    };
    const pythons = {
      main: marker('main-0123456789abcdef', {
        installer: 'uv 0.13.9',
        locked: true,
        resolved: [
          { name: 'numpy', version: '2.3.5' },
          { name: 'torch', version: '2.14.1' },
        ],
      }),
      // Built before markers held the set, and its interpreter is gone: nothing to ask.
      old: marker('old-0123456789abcdef', { requirements: ['six'] }),
      bare: 'python3',
    };
    expect(await recordedEnvironments(pythons)).toEqual({
      main: { installer: 'uv 0.13.9', locked: true, resolved: ['numpy==2.3.5', 'torch==2.14.1'] },
    });
  });
});
