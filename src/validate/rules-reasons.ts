// Semantic rules of a group's reasons and unpaired rules: each names declared cells of its group, no cell
// is reasoned twice, a stale reason is warned; and every cell is implemented or given a reason.
import { diag, ptr, suggestion, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { expandSubjectList } from '../spec/subjects.ts';
import { namesSubject } from '../spec/sweep.ts';
import type { Spec } from '../spec/types.ts';
import { ruleCovers } from '../plan/expand.ts';
import type { RuleInput } from './rules.ts';

type Rule = (input: RuleInput) => Diagnostic[];

const at = (spec: Spec, pointer: string, key = false) => positionOf(spec.positions, pointer, spec.file, key);

/** Reasons: known names, non-empty text, at least one cell, no cell reasoned twice, stale reasons warned. */
export const reasons: Rule = ({ spec, plan }) => {
  const out: Diagnostic[] = [];
  for (const g of spec.groups) {
    const cellsOf = plan.cells.filter((c) => c.group === g.id);
    g.unsupported.forEach((r, i) => {
      const unknown = unknownNames(spec, g, r);
      out.push(...unknown);
      if (r.reason.trim() === '')
        out.push(
          diag(
            'error',
            'empty-reason',
            at(spec, `${r.pointer}/reason`),
            `${r.pointer}/reason`,
            'the reason is empty.',
            'Say in words why these cells are not run.',
          ),
        );
      const covered = cellsOf.filter((c) => ruleCovers(r, c.contract, c.tool, c.subject));
      if (covered.length === 0 && unknown.length === 0)
        out.push(
          diag(
            'error',
            'reason-names-no-cell',
            at(spec, r.pointer),
            r.pointer,
            'this reason names no existing cell of the group.',
            'Check its tools/contracts/subjects, or remove it.',
          ),
        );
      const mine = covered.filter((c) => c.rule === i);
      const stolen = covered.filter((c) => c.rule !== null && c.rule !== i);
      if (stolen.length > 0) {
        const first = g.unsupported[stolen[0].rule!];
        out.push(
          diag(
            'error',
            'reason-overlap',
            at(spec, r.pointer),
            r.pointer,
            `cell ${stolen[0].id}${stolen.length > 1 ? ` (and ${stolen.length - 1} more)` : ''} already has a reason (at ${fmtPos(spec, first.pointer)}).`,
            'Give each cell one reason: narrow one of the two.',
          ),
        );
      }
      const stale = mine.filter((c) => c.implemented);
      // A reason limited to releases says what the manifest cannot know (which releases have the API).
      if (stale.length > 0 && !r.policy && r.versions === null) {
        const list =
          stale
            .slice(0, 3)
            .map((c) => c.id)
            .join(', ') + (stale.length > 3 ? `, and ${stale.length - 3} more` : '');
        out.push(
          diag(
            'warning',
            'stale-reason',
            at(spec, r.pointer),
            r.pointer,
            `stale reason: the adapter implements ${list}.`,
            'Remove the reason so the cell runs, or mark it `policy: true` if this benchmark excludes it on purpose.',
          ),
        );
      }
    });
  }
  return out;
};

/** A reason's or unpaired rule's tools, contracts and subjects that are not in its group. */
function unknownNames(
  spec: Spec,
  g: Spec['groups'][number],
  r: Spec['groups'][number]['unsupported'][number],
  what = 'reason',
): Diagnostic[] {
  const out: Diagnostic[] = [];
  // A reason may name a subject an axis made from the group's (a point gpt2@seq=256, a dtype gpt2@bf16).
  const made = expandSubjectList(spec.subjects, g.subjects);
  const subjects = [...new Set([...g.subjects, ...made])];
  const dims: ['tools' | 'contracts' | 'subjects', string[], string][] = [
    ['tools', g.tools, 'tool'],
    ['contracts', g.contracts, 'contract'],
    ['subjects', subjects, 'subject'],
  ];
  for (const [key, known, noun] of dims) {
    (r[key] ?? []).forEach((x, k) => {
      if (known.includes(x) || (noun === 'subject' && made.some((id) => namesSubject(x, id)))) return;
      const q = `${r.pointer}/${key}/${k}`;
      // A name the spec no longer declares at all is the root cause of every place that names it
      // (other reasons, page rows): an `unknown` error, so that they fold under it (fold.ts).
      const declared = Object.keys(noun === 'tool' ? spec.tools : noun === 'contract' ? spec.contracts : spec.subjects);
      if (!declared.includes(x))
        out.push(
          diag(
            'error',
            `unknown-${noun}`,
            at(spec, q),
            q,
            `unknown ${noun} '${x}': this ${what} names it, but the spec does not declare it.`,
            suggestion(x, known, noun),
          ),
        );
      else
        out.push(
          diag(
            'error',
            'reason-unknown-name',
            at(spec, q),
            q,
            `this ${what} names ${noun} '${x}', which is not in group ${g.id}.`,
            suggestion(x, known, noun),
          ),
        );
    });
  }
  return out;
}

/**
 * `unpaired` rules (docs/protocol.md, Pairing): known names, and at least one planned cell that would
 * otherwise be paired; a rule that covers only cells without a baseline changes nothing, so it is said.
 */
export const unpairedRules: Rule = ({ spec, plan }) => {
  const out: Diagnostic[] = [];
  for (const g of spec.groups) {
    g.unpaired.forEach((r) => {
      const unknown = unknownNames(spec, g, r, 'unpaired rule');
      out.push(...unknown);
      if (unknown.length > 0) return;
      const covered = plan.cells.filter(
        (c) => c.group === g.id && c.pairing !== null && ruleCovers(r, c.contract, c.tool, c.subject),
      );
      if (covered.length === 0)
        out.push(
          diag(
            'error',
            'unpaired-names-no-cell',
            at(spec, r.pointer),
            r.pointer,
            'this unpaired rule names no tool cell of the group.',
            "Check its tools/contracts/subjects (the raw tool's own cells are never paired), or remove it.",
          ),
        );
      else if (!covered.some((c) => c.pairing?.unpaired === r.reason))
        out.push(
          diag(
            'warning',
            'unpaired-rule-unused',
            at(spec, r.pointer),
            r.pointer,
            'every cell this rule names is unpaired for another reason already.',
            'Remove the rule.',
          ),
        );
    });
  }
  return out;
};

/** Every cell is implemented by its adapter or given a reason. */
export const coverage: Rule = ({ spec, plan }) => {
  const out: Diagnostic[] = [];
  for (const c of plan.cells) {
    if (c.implemented || c.rule !== null) continue;
    if (!spec.tools[c.tool]) continue; // reported as an unknown tool
    const p = ptr('groups', c.group);
    out.push(
      diag(
        'error',
        'unreasoned-cell',
        at(spec, p, true),
        p,
        `cell ${c.id} is neither implemented (adapter '${c.adapter}' of runner '${c.runner}' has no '${c.kind}') nor given a reason.`,
        `Add it to the group's 'unsupported' list with a reason, or implement ${c.kind} in the adapter.`,
      ),
    );
  }
  return out;
};

function fmtPos(spec: Spec, pointer: string): string {
  const p = positionOf(spec.positions, pointer, spec.file);
  return `line ${p.line}`;
}
