import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests spawn real Python processes (torch imports take seconds), so the timeouts are generous and
// files run in at most two workers: CI has two cores.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    maxWorkers: 2,
    // The fixture specs name runners in test/fixtures/runners, outside their own directory, and some extend
    // the project's specs (peers-resnet.yaml extends specs/resnet18_cpu.yaml): both are allowed (docs/spec.md).
    env: {
      BENCHGRID_ALLOW_DIRS: [
        fileURLToPath(new URL('./test/fixtures', import.meta.url)),
        fileURLToPath(new URL('./specs', import.meta.url)),
      ].join(path.delimiter),
    },
    reporters: ['default'],
  },
});
