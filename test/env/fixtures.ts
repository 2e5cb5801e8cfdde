// The specs the environment tests build: what varies is the environments (and a versioned tool); the subject,
// a ResNet-18 at 8x8 images that no test here runs, stays the same.
import { write } from '../helpers.ts';

const SUBJECT =
  '{ label: S, model: { builder: torchvision, name: resnet18, seed: 0 }, inputs: { kind: image, shape: [1, 3, 8, 8], seed: 0 }, sites: { l: layer1 } }';

/** Writes DIR/FILE: a spec whose only environment, `env`, installs `requirement`, for one raw forward cell; its path. */
export function oneEnvSpec(
  dir: string,
  file: string,
  o: { name: string; title: string; env: string; requirement: string },
): string {
  return write(
    dir,
    file,
    `benchgrid: 1
name: ${o.name}
title: ${o.title}
device: cpu
environments:
  ${o.env}: { requirements: ["${o.requirement}"] }
subjects:
  s: ${SUBJECT}
contracts: { raw_forward: {} }
tools: { reference: { label: ref } }
groups: { B: { subjects: [s], cells: { raw_forward: [reference] } } }
`,
  );
}

/**
 * A spec whose hooks (the reference) and `tools` (id: declaration) read the output of layer2, over the environments
 * given (the lines under `environments:`).
 */
export function layer2Spec(o: {
  name: string;
  title: string;
  environments: string;
  tools?: Record<string, string>;
}): string {
  const tools = Object.entries(o.tools ?? {});
  return `benchgrid: 1
name: ${o.name}
title: ${o.title}
device: cpu
environments:
${o.environments}
subjects:
  s: ${SUBJECT.replace('label: S', 'label: s').replace('l: layer1', 'l: layer2')}
contracts:
  single_module_output: { site: l }
tools:
  hooks: { label: hooks }
${tools.map(([id, tool]) => `  ${id}: ${tool}\n`).join('')}groups:
  A: { reference: hooks, subjects: [s], contracts: [single_module_output], tools: [${['hooks', ...tools.map(([id]) => id)].join(', ')}] }
`;
}
