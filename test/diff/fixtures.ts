// Shared by the diff tests: load a fixture pair, build an expected SpecDiff, make a temporary git repository.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import { diffSpecs } from '../../src/diff/compute.ts';
import type { DiffSummary, SpecDiff } from '../../src/diff/model.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { FIXTURES, tmpdir, write } from '../helpers.ts';

/** Directory of the fixture pairs: <case>/old.yaml and <case>/new.yaml. */
export const PAIRS = path.join(FIXTURES, 'diff');

/** Loads a file that must be a valid spec. */
export async function load(file: string) {
  const loaded = await loadSpec(file);
  expect(
    loaded.diagnostics.filter((d) => d.severity === 'error'),
    file,
  ).toEqual([]);
  return { spec: loaded.spec!, plan: loaded.plan! };
}

/** The diff of a fixture pair, with its files shown as old.yaml and new.yaml. */
export async function diffPair(name: string): Promise<SpecDiff> {
  const old = await load(path.join(PAIRS, name, 'old.yaml'));
  const neu = await load(path.join(PAIRS, name, 'new.yaml'));
  return diffSpecs({ ...old, file: 'old.yaml' }, { ...neu, file: 'new.yaml' });
}

/** The diff of two spec texts written to a temporary directory. */
export async function diffTexts(oldText: string, newText: string): Promise<SpecDiff> {
  const dir = tmpdir();
  const old = await load(write(dir, 'old.yaml', oldText));
  const neu = await load(write(dir, 'new.yaml', newText));
  return diffSpecs({ ...old, file: 'old.yaml' }, { ...neu, file: 'new.yaml' });
}

/** The diff of SMALL to SMALL with these replacements (see variant). */
export function diffFromSmall(...reps: [string, string][]): Promise<SpecDiff> {
  return diffTexts(SMALL, variant(...reps));
}

/** The small spec every pair starts from (old.yaml of protocol-change is it, unchanged). */
export const SMALL = fs.readFileSync(path.join(PAIRS, 'protocol-change/old.yaml'), 'utf8');

/** SMALL with textual replacements, each of which must apply. */
export function variant(...reps: [string, string][]): string {
  let text = SMALL;
  for (const [from, to] of reps) {
    expect(text.includes(from), `the fixture contains ${JSON.stringify(from)}`).toBe(true);
    text = text.replace(from, to);
  }
  return text;
}

type Parts = Partial<Omit<SpecDiff, 'cells' | 'page' | 'summary'>> & {
  cells?: Partial<SpecDiff['cells']>;
  page?: Partial<SpecDiff['page']>;
};

/** A complete expected SpecDiff: what is given, everything else empty, and the summary counted from the lists. */
export function expected(parts: Parts, sizes: { cells: [number, number]; planned: [number, number] }): SpecDiff {
  const cells = { added: [], removed: [], renamed: [], flipped: [], reasonChanged: [], ...parts.cells };
  const page = { added: [], removed: [], relabelled: [], ...parts.page };
  const base = {
    old: { file: 'old.yaml', name: 'small', cells: sizes.cells[0], planned: sizes.planned[0] },
    new: { file: 'new.yaml', name: 'small', cells: sizes.cells[1], planned: sizes.planned[1] },
    changed: true,
    renames: [],
    definitions: [],
    labels: [],
    invalidated: [],
    ...parts,
  };
  const summary: DiffSummary = {
    cells: { old: sizes.cells[0], new: sizes.cells[1] },
    planned: { old: sizes.planned[0], new: sizes.planned[1] },
    added: cells.added.length,
    removed: cells.removed.length,
    renamed: cells.renamed.length,
    flipped: cells.flipped.length,
    reasonChanged: cells.reasonChanged.length,
    definitionChanges: base.definitions.length,
    invalidated: base.invalidated.length,
    labelChanges: base.labels.length,
    pageAdded: page.added.length,
    pageRemoved: page.removed.length,
    pageRelabelled: page.relabelled.length,
  };
  return { ...base, cells, page, summary } as SpecDiff;
}

/** The cells of SMALL, in plan order. */
export const CELLS = {
  smoRaw: 'A/single_module_output/raw/resnet18',
  smoHooks: 'A/single_module_output/hooks/resnet18',
  smoFx: 'A/single_module_output/tv_fx/resnet18',
  editRaw: 'A/replacement_edit/raw/resnet18',
  editHooks: 'A/replacement_edit/hooks/resnet18',
  editFx: 'A/replacement_edit/tv_fx/resnet18',
  forward: 'B/raw_forward/reference/resnet18',
};

/** Environment for git in tests: a fixed identity, no user or system config. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'benchgrid test',
  GIT_AUTHOR_EMAIL: 'test@benchgrid.invalid',
  GIT_COMMITTER_NAME: 'benchgrid test',
  GIT_COMMITTER_EMAIL: 'test@benchgrid.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** A fresh git repository on branch main; returns its directory and a git runner that throws on failure. */
export async function gitRepo() {
  const dir = fs.realpathSync(tmpdir('benchgrid-git-'));
  const git = async (...args: string[]) => (await execa('git', args, { cwd: dir, env: GIT_ENV })).stdout;
  await git('init', '-q', '-b', 'main');
  return { dir, git };
}
