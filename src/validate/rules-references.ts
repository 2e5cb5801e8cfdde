// Semantic rules of references: a group names declared subjects, contracts, tools and its reference tool (once
// each), and a tool names a runner, an adapter of it and an environment that exist; an unknown name gets a hint.
import path from 'node:path';
import { didYouMean, diag, ptr, suggestion, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { userRunnerFolders } from '../spec/manifests.ts';
import type { Spec } from '../spec/types.ts';
import type { RuleInput } from './rules.ts';

type Rule = (input: RuleInput) => Diagnostic[];

const at = (spec: Spec, pointer: string, key = false) => positionOf(spec.positions, pointer, spec.file, key);

function unknownRef(spec: Spec, pointer: string, word: string, known: string[], noun: string): Diagnostic {
  return diag(
    'error',
    `unknown-${noun}`,
    at(spec, pointer),
    pointer,
    `unknown ${noun} '${word}'.`,
    suggestion(word, known, noun),
  );
}

/**
 * The hint of an unknown tool: a declared tool it may be a typo of; else the adapter of that name
 * (declare it under `tools:`); else every adapter there is and how to add one. A group naming
 * `torchlens` used to hear only of the spec's declared tools though the adapter exists.
 */
export function toolHint(word: string, declared: string[], manifests: RuleInput['manifests']): string {
  const typo = didYouMean(word, declared);
  if (typo) return `Did you mean '${typo}'?`;
  const adapters = Object.values(manifests).flatMap((m) =>
    m instanceof Error ? [] : Object.keys(m.adapters).map((a) => ({ runner: m.runner, adapter: a })),
  );
  const same = adapters.find((a) => a.adapter === word);
  if (same)
    return `Runner '${same.runner}' has an adapter '${word}': declare it under tools: as \`${word}: { label: ... }\`${same.runner === 'torch' ? '' : ` with runner: ${same.runner}`}.`;
  const list = [...new Set(adapters.map((a) => a.adapter))];
  return `Tools are declared under tools: (declared here: ${declared.join(', ') || 'none'}); adapters available: ${list.join(', ')} (\`benchgrid tools\` lists their contracts). To add your own: docs/adding-a-tool.md.`;
}

/** Groups name only declared subjects, contracts, tools and reference tools; no duplicates in lists. */
export const groupReferences: Rule = ({ spec, manifests }) => {
  const out: Diagnostic[] = [];
  const subjects = Object.keys(spec.subjects);
  const contracts = Object.keys(spec.contracts);
  const tools = Object.keys(spec.tools);
  for (const g of spec.groups) {
    const base = ptr('groups', g.id);
    const checkList = (list: string[], key: string, known: string[], noun: string) => {
      const seen = new Set<string>();
      const declared = new Set(known); // a set: a group may list thousands of names
      list.forEach((x, i) => {
        const p = `${base}/${key}/${i}`;
        if (!declared.has(x))
          out.push(
            noun === 'tool'
              ? diag('error', 'unknown-tool', at(spec, p), p, `unknown tool '${x}'.`, toolHint(x, known, manifests))
              : unknownRef(spec, p, x, known, noun),
          );
        if (seen.has(x)) out.push(diag('error', 'duplicate', at(spec, p), p, `'${x}' is listed twice.`, 'Remove one.'));
        seen.add(x);
      });
    };
    checkList(g.subjects, 'subjects', subjects, 'subject');
    const isProduct = !spec.written.has(ptr('groups', g.id, 'cells'));
    if (isProduct) {
      checkList(g.contracts, 'contracts', contracts, 'contract');
      checkList(g.tools, 'tools', tools, 'tool');
    } else {
      for (const { contract, tools: ts } of g.cells) {
        const p = base + ptr('cells', contract);
        if (!contracts.includes(contract))
          out.push(
            diag(
              'error',
              'unknown-contract',
              at(spec, p, true),
              p,
              `unknown contract '${contract}'.`,
              suggestion(contract, contracts, 'contract'),
            ),
          );
        checkList(ts, `cells/${contract.replace(/~/g, '~0').replace(/\//g, '~1')}`, tools, 'tool');
      }
    }
    if (g.reference !== null && !g.tools.includes(g.reference)) {
      const p = `${base}/reference`;
      out.push(
        diag(
          'error',
          'unknown-reference',
          at(spec, p),
          p,
          `reference tool '${g.reference}' is not one of this group's tools.`,
          suggestion(g.reference, g.tools, 'tool'),
        ),
      );
    }
  }
  return out;
};

/** Tools name existing runners, adapters and environments. */
export const toolReferences: Rule = ({ spec, manifests }) => {
  const out: Diagnostic[] = [];
  const envs = Object.keys(spec.environments);
  for (const t of Object.values(spec.tools)) {
    if (t.version !== null) continue; // one release of a versioned tool: checked as the declared tool
    const base = ptr('tools', t.id);
    const m = manifests[t.runner];
    if (!m) {
      const p = spec.written.has(`${base}/runner`) ? `${base}/runner` : base;
      const folder = userRunnerFolders()[t.runner];
      const hint = folder
        ? `${folder} is a runner folder of yours: declare it in the spec, \`runners: { ${t.runner}: ${path.relative(path.dirname(spec.file), folder).split(path.sep).join('/')} }\` (docs/adding-a-tool.md).`
        : suggestion(t.runner, Object.keys(manifests), 'runner');
      out.push(diag('error', 'unknown-runner', at(spec, p), p, `unknown runner '${t.runner}'.`, hint));
    } else if (m instanceof Error) {
      out.push(diag('error', 'bad-manifest', at(spec, base), base, m.message));
    } else if (!m.adapters[t.adapter]) {
      const p = spec.written.has(`${base}/adapter`) ? `${base}/adapter` : base;
      const typo = didYouMean(t.adapter, Object.keys(m.adapters));
      out.push(
        diag(
          'error',
          'unknown-adapter',
          at(spec, p, p === base),
          p,
          `runner '${t.runner}' has no adapter '${t.adapter}'.`,
          typo
            ? `Did you mean '${typo}'?`
            : `Its adapters: ${Object.keys(m.adapters).join(', ')}. To add one: docs/adding-a-tool.md (\`benchgrid init --tool ${t.adapter}\` writes a runner to start from).`,
        ),
      );
    }
    if (envs.length > 0 && !envs.includes(t.environment)) {
      const p = `${base}/environment`;
      out.push(unknownRef(spec, p, t.environment, envs, 'environment'));
    }
  }
  return out;
};
