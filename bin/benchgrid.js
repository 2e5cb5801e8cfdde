#!/usr/bin/env node
// The installed entry point. It runs the JavaScript that `npm ci` built into dist/ (the `prepare`
// script; `prepack` for the npm package), so the CLI starts without transpiling; when dist/ is missing or
// older than a source file (a checkout being edited), it runs the TypeScript sources through tsx's loader
// instead (a development dependency: without it, it says what to run). The npm package ships dist/ without
// src/ (package.json `files`): installed, it runs dist/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'cli.js');

/** The newest modification time of the TypeScript sources under a directory. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

function fresh() {
  if (!fs.existsSync(path.join(root, 'src'))) return true;
  try {
    return fs.statSync(built).mtimeMs >= newestSource(path.join(root, 'src'));
  } catch {
    return false;
  }
}

let cli;
if (process.env.BENCHGRID_FROM_SOURCE !== '1' && fresh()) {
  cli = await import(pathToFileURL(built).href);
} else {
  // tsx is a development dependency: a checkout has it after `npm ci`; the npm package runs dist/ and has none.
  const tsx = await import('tsx/esm/api').catch(() => null);
  if (!tsx) {
    const why =
      process.env.BENCHGRID_FROM_SOURCE === '1'
        ? 'BENCHGRID_FROM_SOURCE=1 asks for the sources'
        : 'dist/ is missing or older than src/';
    process.stderr.write(
      `benchgrid: ${why}, and tsx (a development dependency) is not installed to run them:\n` +
        'run `npm ci` in the checkout (it installs tsx and builds dist/), or `npm run build`.\n',
    );
    process.exit(2);
  }
  tsx.register();
  cli = await import(pathToFileURL(path.join(root, 'src', 'cli.ts')).href);
}
// The module runs its arguments only when it is itself the program started; imported, it is called here.
if (typeof cli.main === 'function') process.exitCode = await cli.main(process.argv.slice(2));
