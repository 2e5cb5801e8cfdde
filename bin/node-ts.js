#!/usr/bin/env node
// Runs a TypeScript file of this repository (bench, schema writers) through tsx's loader.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

register();
const [file, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], file, ...rest];
await import(pathToFileURL(path.resolve(file)).href);
