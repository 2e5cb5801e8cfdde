// Shared by the tests of the GitHub Action: action.yml as parsed, and its steps by name.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../helpers.ts';

/** A step of a composite action or a workflow job, as far as the tests read it. */
export interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'continue-on-error'?: boolean;
}

/** action.yml, parsed. */
export const action = parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8'));
/** The action's steps, in order. */
export const steps: Step[] = action.runs.steps;
/** The action's step of this name. */
export const step = (name: string) => steps.find((s) => s.name === name)!;
