#!/usr/bin/env node
// The installed entry point: registers tsx's loader so the TypeScript sources run without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
