// Rewrites the noise section of docs/performance.md from the newest bench/results/noise-<date>.json
// (what `bench/noise.ts summary` does at the end of a campaign), e.g. after copying a campaign's summary in.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../src/repository.ts';
import { newestNoise, noiseSection, spliceNoise } from './noise-section.ts';

const n = newestNoise(path.join(REPO_ROOT, 'bench/results'));
if (!n) throw new Error('no bench/results/noise-<date>.json: run bench/noise.sh first');
const doc = path.join(REPO_ROOT, 'docs/performance.md');
fs.writeFileSync(
  doc,
  spliceNoise(fs.readFileSync(doc, 'utf8'), noiseSection(n.summary, path.relative(REPO_ROOT, n.file))),
);
process.stderr.write(`wrote the noise section of docs/performance.md from ${path.relative(REPO_ROOT, n.file)}\n`);
