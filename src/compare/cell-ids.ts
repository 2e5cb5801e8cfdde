// Cell ids short enough for the compare table's first column. An id (`group/contract/tool/subject`) cut in
// its middle loses the contract and tool, which are what a reader of the table needs; so the parts every
// row shares go first (said once beside the table), then the subject and the group are shortened, and the
// contract and the tool only last. Pure.
import { cutMiddle, visibleLength } from '../util/width.ts';

/** The parts of a cell id, in order. */
const PARTS = ['group', 'contract', 'tool', 'subject'] as const;

/** Which parts are shortened first when ids are still too wide: the subject, the group, then the rest. */
const CUT_ORDER = [3, 0, 1, 2];

/** A part is never cut below this many columns ("re…18"): shorter, it would not name anything. */
export const MIN_PART = 5;

/** Ids as the table shows them. */
export interface ShortIds {
  /** One per input id, in order. */
  ids: string[];
  /** The first column's heading: `cell`, or the parts shown (`contract/tool`) when some are left out. */
  head: string;
  /** The line said once beside the table when ids were shortened; null when they are shown whole. */
  note: string | null;
}

/**
 * `ids` shortened to at most `max` columns where they are wider: the parts the same on every row left
 * out (with one row, only its group and subject), then parts cut in the middle with '…' in CUT_ORDER,
 * each never below MIN_PART and never so far that two different names of a part look the same. Ids that
 * still do not fit come back as short as this can make them; ids not of four parts come back unchanged.
 */
export function shortIds(ids: string[], max: number): ShortIds {
  const whole: ShortIds = { ids, head: 'cell', note: null };
  if (ids.length === 0 || widest(ids) <= max) return whole;
  const rows = ids.map((id) => id.split('/'));
  if (rows.some((r) => r.length !== PARTS.length)) return whole;
  const names = PARTS.map((_, p) => new Set(rows.map((r) => r[p])));
  const droppable = names.some((n) => n.size > 1) ? [0, 1, 2, 3] : [0, 3];
  const shared = droppable.filter((p) => names[p].size === 1);
  const kept = [0, 1, 2, 3].filter((p) => !shared.includes(p));
  // What each kept part's names are shown as (themselves until the part is cut), and their widths: an
  // id's width is the sum of its parts' and the slashes', so a grid of 200,000 rows is not measured anew.
  const shown = kept.map((p) => new Map([...names[p]].map((n) => [n, n])));
  const widths = shown.map((m) => new Map([...m.keys()].map((n) => [n, visibleLength(n)])));
  const overWith = (k: number, w: Map<string, number>) => {
    let most = 0;
    for (const r of rows) {
      let x = kept.length - 1;
      for (let j = 0; j < kept.length; j++) x += (j === k ? w : widths[j]).get(r[kept[j]])!;
      most = Math.max(most, x);
    }
    return most - max;
  };
  for (const p of CUT_ORDER.filter((q) => kept.includes(q))) {
    const k = kept.indexOf(p);
    const over = overWith(k, widths[k]);
    if (over <= 0) break;
    shown[k] = cutPart([...shown[k].keys()], over, (w) => overWith(k, w));
    widths[k] = new Map([...shown[k]].map(([n, v]) => [n, visibleLength(v)]));
  }
  const parts = shared.map((p) => `${PARTS[p]} ${rows[0][p]}`);
  const cut = shown.some((m) => [...m].some(([name, short]) => name !== short));
  const notes = [
    parts.length > 0 ? `On every row: ${parts.join(', ')}.` : null,
    cut ? `Names with … are shortened in the middle; --format json has the full ids.` : null,
  ].filter((n): n is string => n !== null);
  return {
    ids: rows.map((r) => kept.map((p, k) => shown[k].get(r[p])).join('/')),
    head: shared.length > 0 ? kept.map((p) => PARTS[p]).join('/') : 'cell',
    note: notes.length > 0 ? notes.join(' ') : null,
  };
}

/**
 * The distinct `names` of one part cut to a common width, as little as takes `over` columns off the widest
 * id (or as much as MIN_PART and keeping the names apart allow). `overWith` is how far the ids are still
 * over the limit with the names at the given widths.
 */
function cutPart(
  names: string[],
  over: number,
  overWith: (widths: Map<string, number>) => number,
): Map<string, string> {
  const cutTo = (width: number) => new Map(names.map((n) => [n, cutMiddle(n, width)]));
  const apart = (m: Map<string, string>) => new Set(m.values()).size === names.length;
  let width = widest(names);
  let best = cutTo(width);
  // Narrower by what is still over each time; where two names would meet, only as narrow as keeps them apart.
  for (let still = over; still > 0 && width > MIN_PART; ) {
    let next = Math.max(MIN_PART, width - still);
    let m = cutTo(next);
    while (!apart(m) && next < width) m = cutTo(++next);
    if (next >= width) break;
    width = next;
    best = m;
    still = overWith(new Map([...best].map(([n, v]) => [n, visibleLength(v)])));
  }
  return best;
}

/** The widest of some strings, in terminal columns. */
function widest(xs: string[]): number {
  let w = 0;
  for (const x of xs) w = Math.max(w, visibleLength(x));
  return w;
}

/**
 * Columns the first column may take so that a compact grid of `head` and `rows` fits `width`: what the
 * other columns leave (each takes its widest text, a space either side and a border), but never under a
 * third of the width (16 at least), below which fit-table splits the columns rather than shorten the ids.
 */
export function roomForIds(head: string[], rows: string[][], width: number): number {
  let others = 1;
  for (let i = 1; i < head.length; i++) {
    let w = visibleLength(head[i]);
    for (const r of rows) w = Math.max(w, visibleLength(r[i] ?? ''));
    others += w + 3;
  }
  return Math.max(width - others - 3, Math.max(16, Math.floor(width / 3)));
}
