// Before any test: make sure the Python environment the tests run cells with exists (built once,
// cached under ~/.cache/benchgrid), so `npm test` works on a fresh machine.
import path from 'node:path';
import { execa } from 'execa';
import { ROOT } from './helpers.ts';

export default async function setup(): Promise<void> {
  if (process.env.BENCHGRID_TEST_PYTHON) return;
  await execa(
    process.execPath,
    [path.join(ROOT, 'bin/benchgrid.js'), 'env', 'build', path.join(ROOT, 'specs/resnet18_cpu.yaml')],
    { stdio: 'inherit', cwd: ROOT },
  );
}
