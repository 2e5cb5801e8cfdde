// `benchgrid init [FILE]`: writes a starter spec for a torchvision or Hugging Face model.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { starterSpec } from '../init/starter.ts';
import { specSnippet, toolSkeleton } from '../init/tool.ts';
import { REPO_ROOT } from '../repository.ts';

/** Options of `init`. */
export interface InitOptions {
  model?: string;
  site?: string;
  device?: 'cpu' | 'cuda';
  name?: string;
  force?: boolean;
  /** Write a runner skeleton for a new tool instead of a starter spec. */
  tool?: string;
  /** With --tool: the PyPI distribution the adapter imports. */
  library?: string;
  /** With --tool: the spec whose own runners directory receives it (default: specs/). */
  spec?: string;
}

/** Writes the starter spec to `file` (default specs/<name>.yaml), never over an existing file without --force. */
export async function init(file: string | undefined, opts: InitOptions): Promise<void> {
  if (opts.tool !== undefined) return initTool(opts.tool, opts);
  const model = opts.model ?? 'torchvision:resnet18';
  const name = opts.name ?? (file ? path.basename(file).replace(/\.ya?ml$/, '') : `${model.split(':').pop()}_starter`).toLowerCase().replace(/[^a-z0-9_-]/g, '_');
  const out = path.resolve(file ?? path.join('specs', `${name}.yaml`));
  if (fs.existsSync(out) && !opts.force) throw new UserError(`${out} exists; choose another file, or pass --force to overwrite it.`);
  const schema = path.relative(path.dirname(out), path.join(REPO_ROOT, 'schemas/spec.schema.json')).split(path.sep).join('/');
  const text = starterSpec({ model, site: opts.site, device: opts.device ?? 'cpu', name }, schema);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, text);
  const rel = path.relative(process.cwd(), out) || out;
  process.stderr.write(`benchgrid: wrote ${rel}. Next: benchgrid validate ${rel} && benchgrid plan ${rel} && benchgrid run ${rel}\n`);
}

/**
 * `init --tool NAME`: a runner skeleton in `<spec's directory>/runners/NAME` (specs/runners/NAME without
 * --spec), where a spec's own runners live, and the lines that declare it in the spec.
 */
function initTool(name: string, opts: InitOptions): void {
  const files = toolSkeleton({ name, library: opts.library ?? null });
  const specDir = path.resolve(opts.spec ? path.dirname(opts.spec) : 'specs');
  const dir = path.join(specDir, 'runners', name);
  if (fs.existsSync(dir) && !opts.force) throw new UserError(`${dir} exists; choose another name, or pass --force to overwrite its files.`);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  const shown = path.relative(process.cwd(), dir) || dir;
  const runnerPath = path.relative(specDir, dir).split(path.sep).join('/');
  const spec = opts.spec ? path.relative(process.cwd(), path.resolve(opts.spec)) || opts.spec : 'SPEC';
  process.stderr.write(`benchgrid: wrote ${shown}/ (manifest.json, ${name}_adapters/${name}_.py). ${missingSpec(opts.spec, spec)}Add to ${opts.spec ? spec : 'your spec'}:\n\n${specSnippet(name, runnerPath, opts.library ?? null)}\nThen: benchgrid validate ${spec}, and benchgrid run ${spec} --only 'A/single_module_output/hooks/*,A/single_module_output/${name}*/*' --processes 1 for its first cell beside the group's reference (hooks in the starter spec). The walk-through: docs/adding-a-tool.md\n`);
}

/**
 * The line `--spec` deserves when it names no file yet: the runner is written all the same (it only
 * needs the spec's directory), and the starter spec is one command away, under that very name.
 */
function missingSpec(given: string | undefined, shown: string): string {
  if (given === undefined || fs.existsSync(path.resolve(given))) return '';
  return `${shown} does not exist yet: \`benchgrid init ${shown}\` writes a starter spec there (raw, forward hooks and nnsight on ResNet-18) to add the tool to. `;
}
