// The SpecDiff data model: what a spec change does to the matrix. `--format json` prints it as is.
import type { Diagnostic } from '../spec/diagnostics.ts';

/** Format version of the JSON report; bumped when a field changes meaning. */
export const DIFF_FORMAT = 1;

/** One side of a diff: which file it came from and the size of its matrix. */
export interface SideInfo {
  /** How the file is shown: a path relative to the working directory, or `REV:path` for a git revision. */
  file: string;
  name: string;
  cells: number;
  planned: number;
}

/** A cell as it is listed: its id, status and reason. */
export interface CellRef {
  id: string;
  status: 'planned' | 'unsupported';
  reason: string | null;
}

/** A status flip (planned <-> unsupported), with both reasons. */
export interface CellFlip {
  id: string;
  /** The cell's id in the old spec, when a rename changed it. */
  was: string | null;
  from: { status: CellRef['status']; reason: string | null };
  to: { status: CellRef['status']; reason: string | null };
}

/** An unsupported cell whose reason text changed. */
export interface ReasonChange {
  id: string;
  was: string | null;
  from: string | null;
  to: string | null;
}

/** A contract, tool or subject whose id changed while the rest of its definition did not. */
export interface Rename {
  kind: 'contract' | 'tool' | 'subject';
  from: string;
  to: string;
}

/** One changed value inside a definition; `null` stands for "not set". */
export interface FieldChange {
  /** Dotted path inside the definition, e.g. `inputs.shape` or `sites.layer2`. */
  path: string;
  from: unknown;
  to: unknown;
}

/** What a definition change is about. */
export type DefinitionKind =
  | 'device'
  | 'protocol'
  | 'environment'
  | 'runner'
  | 'subject'
  | 'contract'
  | 'tool'
  | 'group'
  | 'slurm';

/** A change of something cells are measured with, and the cells whose numbers it invalidates. */
export interface DefinitionChange {
  kind: DefinitionKind;
  /** The id of the environment, runner, subject, contract, tool or group (its new id when renamed); null for spec-wide settings. */
  id: string | null;
  change: 'added' | 'removed' | 'changed';
  fields: FieldChange[];
  /** Ids (new spec) of cells planned before and after whose numbers this change invalidates: they need re-measuring. */
  invalidates: string[];
}

/** A cosmetic change: a name, title, description or label. Invalidates nothing. */
export interface LabelChange {
  kind: 'spec' | 'subject' | 'contract' | 'tool' | 'group';
  id: string | null;
  field: 'name' | 'title' | 'description' | 'label';
  from: string;
  to: string;
}

/** One row of the results page: one cell under a row label (in a section) and an entry label. */
export interface PageRowRef {
  cell: string;
  section: string;
  row: string;
  entry: string;
}

/** A page row whose section, row label or entry label changed; `cell` is its new id, `was` the old one when renamed. */
export interface PageRelabel {
  cell: string;
  was: string | null;
  from: { section: string; row: string; entry: string };
  to: { section: string; row: string; entry: string };
}

/** Counts for the one-line summary. */
export interface DiffSummary {
  cells: { old: number; new: number };
  planned: { old: number; new: number };
  added: number;
  removed: number;
  renamed: number;
  flipped: number;
  reasonChanged: number;
  definitionChanges: number;
  invalidated: number;
  labelChanges: number;
  pageAdded: number;
  pageRemoved: number;
  pageRelabelled: number;
}

/** The difference between two versions of one spec, in cells. */
export interface SpecDiff {
  /** null when the spec is new (it did not exist at the base revision). */
  old: SideInfo | null;
  /** null when the spec was deleted. */
  new: SideInfo | null;
  /** Whether anything below is non-empty. */
  changed: boolean;
  summary: DiffSummary;
  renames: Rename[];
  cells: {
    added: CellRef[];
    removed: CellRef[];
    /** Cells whose id changed only through a rename. */
    renamed: { from: string; to: string }[];
    flipped: CellFlip[];
    reasonChanged: ReasonChange[];
  };
  definitions: DefinitionChange[];
  labels: LabelChange[];
  page: { added: PageRowRef[]; removed: PageRowRef[]; relabelled: PageRelabel[] };
  /** Union of every definition change's `invalidates`, in plan order: the cells to re-measure. */
  invalidated: string[];
}

/** A version of a spec that could not be loaded, with its positioned diagnostics. */
export interface InvalidSpec {
  /** The spec as shown (see SideInfo.file) of the side that failed. */
  file: string;
  side: 'old' | 'new';
  diagnostics: Diagnostic[];
}

/** What `benchgrid diff` prints: one diff per spec, and the versions that could not be compared. */
export interface DiffReport {
  format: typeof DIFF_FORMAT;
  /** The git revision compared with (`--base`), or null for `diff OLD NEW`. */
  base: string | null;
  diffs: SpecDiff[];
  invalid: InvalidSpec[];
  /**
   * Specs of the tree that do not load, but that no change since REV touched (broken before it, and
   * still): a warning for each, left out of the diff, never a reason to fail it. Absent for `diff OLD NEW`.
   */
  unrelated_invalid?: { file: string; why: string }[];
}
