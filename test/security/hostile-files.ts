// Small builders of hostile inputs shared by the security tests: a spec whose one contract has a given
// name, and results files edited by path with their refusal read back.
import { expect } from 'vitest';
import { UserError } from '../../src/errors.ts';
import { fromJson } from '../../src/results/load.ts';
import { write } from '../helpers.ts';

/** A minimal valid spec (`name`) whose group A runs raw and hooks on one contract named `contract`; returns its path. */
export function specWithContract(dir: string, file: string, contract: string, name = 'one'): string {
  return write(
    dir,
    file,
    `benchgrid: 1
name: ${name}
title: One contract
device: cpu
subjects:
  s: { label: S, model: { builder: torchvision, name: resnet18, seed: 0 }, inputs: { kind: image, shape: [1, 3, 8, 8], seed: 0 }, sites: { l: layer2 } }
contracts:
  ${contract}: { kind: single_module_output, site: l }
tools: { raw: { label: raw }, hooks: { label: hooks } }
groups:
  A: { reference: hooks, subjects: [s], contracts: [${contract}], tools: [raw, hooks] }
`,
  );
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path

/** A copy of a results document with `edit` applied. */
export function edited(doc: unknown, edit: (r: Json) => void): Json {
  const r = structuredClone(doc) as Json;
  edit(r);
  return r;
}

/** The message a results document is refused with (a UserError); fails the test when it is accepted. */
export function refusal(raw: unknown): string {
  try {
    fromJson(raw, 'hostile.json');
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}
