// Loads both versions of each spec (from files or from a git revision) and diffs them into a report.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import type { Diagnostic } from '../spec/diagnostics.ts';
import { loadMerged, type Reader } from '../spec/extends.ts';
import { hasErrors, loadSpec } from '../validate/load.ts';
import { readSource } from '../spec/source.ts';
import { diffSpecs, type DiffSide } from './compute.ts';
import {
  changedFiles,
  existsAt,
  gitReader,
  labelAt,
  relativeToTop,
  resolveRevision,
  specsAt,
  specsNow,
  type Revision,
} from './git.ts';
import { DIFF_FORMAT, type DiffReport, type InvalidSpec, type SpecDiff } from './model.ts';

/** Where one version of a spec is read from, and how its files are shown. */
interface Version {
  file: string;
  read: Reader;
  label: (file: string) => string;
}

type Loaded = { ok: true; side: DiffSide | null } | { ok: false; invalid: InvalidSpec };

/** One spec compared: its diff when both versions loaded, and the versions that did not. */
type Compared = { diff?: SpecDiff; invalid: InvalidSpec[] };

/** `benchgrid diff OLD NEW`: two files on disk. */
export async function compareFiles(oldFile: string, newFile: string): Promise<DiffReport> {
  const onDisk = (file: string): Version => ({ file, read: readSource, label: shown });
  return report(null, [await comparePair(onDisk(oldFile), onDisk(newFile))]);
}

/**
 * `benchgrid diff --base REV [SPEC...]`: each spec against its version at REV (and what it extends,
 * also at REV). With no spec named, every spec changed since REV. A spec absent at REV is new; one
 * absent from the working tree was deleted.
 */
export async function compareWithRevision(revName: string, files: string[]): Promise<DiffReport> {
  // The repository is the one holding the first named spec, else the working directory's.
  const rev = await resolveRevision(revName, files.length > 0 ? existingDir(path.resolve(files[0])) : process.cwd());
  const found =
    files.length > 0 ? { changed: files.map((f) => path.resolve(f)), unrelated: [] } : await changedSpecs(rev);
  const chosen = found.changed;
  const pairs = [];
  for (const file of chosen) {
    if (relativeToTop(rev, file) === undefined)
      throw new UserError(`${shown(file)} is outside the git repository ${rev.top}; --base compares files inside it.`);
    const before = (await existsAt(rev, file))
      ? { file, read: gitReader(rev), label: (f: string) => labelAt(rev, f) }
      : null;
    const now = fs.existsSync(file) ? { file, read: readSource, label: shown } : null;
    if (!before && !now) throw new UserError(`${shown(file)} exists neither in the working tree nor at ${rev.name}.`);
    pairs.push(await comparePair(before, now));
  }
  return { ...report(rev.name, pairs), unrelated_invalid: found.unrelated };
}

/**
 * Top-level specs changed since the revision: edited, added or deleted, or extending a changed file;
 * and the specs that do not load now, untouched by the change (they did not load at REV either).
 */
async function changedSpecs(rev: Revision): Promise<{ changed: string[]; unrelated: { file: string; why: string }[] }> {
  const changed = await changedFiles(rev);
  const now = specsNow(rev);
  const candidates = [...new Set([...now, ...(await specsAt(rev))])].sort();
  const out: string[] = [];
  const unrelated: { file: string; why: string }[] = [];
  for (const rel of candidates) {
    const abs = path.join(rev.top, rel);
    if (changed.has(rel)) out.push(abs);
    else if (now.includes(rel)) {
      const merged = await loadMerged(abs);
      const sources = merged.doc?.sources ?? null;
      if (sources) {
        if (sources.some((s) => changed.has(relativeToTop(rev, s) ?? ''))) out.push(abs);
        continue;
      }
      // It does not load, though its own file is unchanged: broken by a file it extends (related), or
      // broken already at REV, which no change here touched (unrelated: a warning for it alone).
      const before = await loadMerged(abs, gitReader(rev));
      if (before.doc?.sources.some((s) => changed.has(relativeToTop(rev, s) ?? ''))) out.push(abs);
      else if (before.doc) out.push(abs);
      else
        unrelated.push({
          file: shown(abs),
          why: merged.diagnostics.map((d) => d.message).find(Boolean) ?? 'it does not load',
        });
    }
  }
  return { changed: out, unrelated };
}

async function comparePair(before: Version | null, now: Version | null): Promise<Compared> {
  const a = before ? await loadVersion(before, 'old') : ({ ok: true, side: null } as const);
  const b = now ? await loadVersion(now, 'new') : ({ ok: true, side: null } as const);
  const invalid = [a, b].flatMap((x) => (x.ok ? [] : [x.invalid]));
  if (!a.ok || !b.ok) return { invalid };
  return { diff: diffSpecs(a.side, b.side), invalid };
}

async function loadVersion(v: Version, which: 'old' | 'new'): Promise<Loaded> {
  const loaded = await loadSpec(v.file, v.read);
  if (!loaded.spec || !loaded.plan || hasErrors(loaded.diagnostics)) {
    const diagnostics: Diagnostic[] = loaded.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => ({ ...d, file: v.label(d.file) }));
    return { ok: false, invalid: { file: v.label(v.file), side: which, diagnostics } };
  }
  return { ok: true, side: { spec: loaded.spec, plan: loaded.plan, file: v.label(v.file) } };
}

function report(base: string | null, pairs: Compared[]): DiffReport {
  return {
    format: DIFF_FORMAT,
    base,
    diffs: pairs.flatMap((p) => (p.diff ? [p.diff] : [])),
    invalid: pairs.flatMap((p) => p.invalid),
  };
}

/** The nearest existing directory holding a file (the file itself may be deleted). */
function existingDir(file: string): string {
  let dir = path.dirname(file);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** A path as the user would type it from the working directory. */
function shown(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel.split(path.sep).join('/') : file;
}
