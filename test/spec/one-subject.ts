// The spec the subject tests vary: one subject `s` whose site `block` raw and hooks read, the model, inputs and
// site given; the text is exact, since tests edit it and read diagnostics' line numbers from it.

/**
 * A spec named `name` with subject `s` (labelled `label`) and one group reading its `site`: `protocol` is the
 * protocol block's line if any; `extra` stands between the subject and the contracts, as written (with its newline).
 */
export function oneSubjectSpec(o: {
  name: string;
  title: string;
  label: string;
  model: string;
  inputs: string;
  site: string;
  protocol?: string;
  extra?: string;
}): string {
  return `benchgrid: 1
name: ${o.name}
title: ${o.title}
device: cpu
${o.protocol === undefined ? '' : `protocol: ${o.protocol}\n`}subjects:
  s:
    label: ${o.label}
    model: ${o.model}
    inputs: ${o.inputs}
    sites: { block: ${o.site} }
${o.extra ?? ''}contracts:
  single_module_output: { site: block }
tools:
  raw: { label: plain forward }
  hooks: { label: hooks }
groups:
  A:
    reference: hooks
    subjects: [s]
    contracts: [single_module_output]
    tools: [raw, hooks]
`;
}
