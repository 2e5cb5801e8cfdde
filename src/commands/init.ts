// `benchgrid init [FILE]`: writes a starter spec for a torchvision, Hugging Face or own model.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { hubIdOf, pythonFileOf, stemOf, type Found, type FoundConfig } from '../init/models.ts';
import { starterSpec } from '../init/starter.ts';
import { specSnippet, toolSkeleton } from '../init/tool.ts';
import { REPO_ROOT } from '../repository.ts';
import { hubConfigFile, TOKENIZER_FILES } from '../spec/hub-cache.ts';
import { allowedRoots, describeRoots, leavesRoots } from '../spec/places.ts';
import { STATE_DICT_EXTENSIONS } from '../spec/subjects.ts';
import { inside, writeAtomic } from '../util/files.ts';
import { readJsonFile } from '../util/json-file.ts';
import { isFile } from '../validate/rules-subjects.ts';

/** Options of `init`. */
export interface InitOptions {
  model?: string;
  site?: string;
  /** A vision or own model's inputs: image:NxCxHxW, tokens:BxT:VOCAB or builder. */
  inputs?: string;
  /** A save_pretrained directory, or a state_dict file for a torchvision or python model. */
  weights?: string;
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

/**
 * Writes the starter spec to `file`, never over an existing file without --force and never through a link.
 * Without a file it goes to specs/<name>.yaml, or to the current directory when a file it names (your model,
 * your weights) lies outside specs/: a spec's files are contained in its directory (docs/security.md).
 */
export async function init(file: string | undefined, opts: InitOptions): Promise<void> {
  if (opts.tool !== undefined) return initTool(opts.tool, opts);
  const device = opts.device ?? 'cpu';
  const model = { model: opts.model, site: opts.site, inputs: opts.inputs, device };
  const name =
    opts.name ??
    (file ? path.basename(file).replace(/\.ya?ml$/, '') : `${stemOf(model, opts.weights)}_starter`)
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, '_');
  const named = [pythonFileOf(opts.model), opts.weights]
    .filter((f): f is string => typeof f === 'string')
    .map((f) => path.resolve(f));
  const dir = named.every((f) => inside(f, path.resolve('specs'))) ? 'specs' : '.';
  const out = path.resolve(file ?? path.join(dir, `${name}.yaml`));
  const there = fs.lstatSync(out, { throwIfNoEntry: false });
  if (there && !opts.force) throw new UserError(`${out} exists; choose another file, or pass --force to overwrite it.`);
  if (there?.isSymbolicLink())
    throw new UserError(
      `${out} is a symbolic link; init writes no file through a link (a cloned repository may plant one). Remove it, or choose another file.`,
    );
  const found = discover(opts, out);
  const schema = path
    .relative(path.dirname(out), path.join(REPO_ROOT, 'schemas/spec.schema.json'))
    .split(path.sep)
    .join('/');
  const text = starterSpec({ ...model, name }, schema, found);
  writeAtomic(out, text);
  const rel = path.relative(process.cwd(), out) || out;
  process.stderr.write(
    `benchgrid: wrote ${rel}. Next: benchgrid validate ${rel} && benchgrid plan ${rel} && benchgrid run ${rel}\n`,
  );
}

/** Whether anything, a dangling link included, is at `p`. */
function lexists(p: string): boolean {
  return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
}

/**
 * What the files the options name are, read as data (never imported): the model file's and the weights'
 * paths relative to the spec, a save_pretrained directory's config.json and tokenizer, a hub snapshot's
 * config.json. Each must lie where the spec may name it.
 */
function discover(opts: InitOptions, out: string): Found {
  const roots = allowedRoots(out);
  const relative = (f: string, what: string): string => {
    const abs = path.resolve(f);
    const why = leavesRoots(abs, roots);
    if (why)
      throw new UserError(
        `${what} ${abs} is ${why} ${describeRoots(roots)}, where the spec may not name it. Write the spec beside it (benchgrid init DIR/NAME.yaml ...), or allow its directory in $BENCHGRID_ALLOW_DIRS (docs/spec.md).`,
      );
    return path.relative(path.dirname(out), abs).split(path.sep).join('/');
  };
  const found: Found = {};
  const file = pythonFileOf(opts.model);
  if (file) {
    if (!isFile(file))
      throw new UserError(`--model: ${file} is not a file (the path is relative to the current directory).`);
    found.modelFile = relative(file, 'model file');
  }
  if (opts.weights !== undefined) found.weights = weightsOf(opts.weights, relative(opts.weights, 'weights'));
  const hub = hubIdOf(opts.model);
  if (hub) {
    const config = hubConfigFile(hub);
    found.hubConfig = config ? configOf(config) : null;
  }
  return found;
}

function weightsOf(given: string, written: string): NonNullable<Found['weights']> {
  const st = fs.statSync(given, { throwIfNoEntry: false });
  if (st?.isDirectory()) {
    const config = path.join(given, 'config.json');
    if (!isFile(config))
      throw new UserError(
        `--weights: ${given} has no config.json; give a directory written by save_pretrained, or a state_dict file (${STATE_DICT_EXTENSIONS.join(', ')}).`,
      );
    const tokenizer = TOKENIZER_FILES.some((f) => isFile(path.join(given, f)));
    return { written, kind: 'pretrained', config: configOf(config), tokenizer };
  }
  if (st?.isFile() && STATE_DICT_EXTENSIONS.some((e) => given.toLowerCase().endsWith(e)))
    return { written, kind: 'state_dict', config: null, tokenizer: false };
  throw new UserError(
    `--weights: ${given} is neither a save_pretrained directory nor a state_dict file (${STATE_DICT_EXTENSIONS.join(', ')}).`,
  );
}

/** The facts of a config.json init needs, each checked: what it cannot use is null. */
function configOf(file: string): FoundConfig | null {
  const data = readJsonFile(file, 4 * 1024 * 1024, 'transformers config');
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const d = data as Record<string, unknown>;
  const count = (...keys: string[]): number | null => {
    const v = keys.map((k) => d[k]).find((x) => x !== undefined);
    return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 2 ** 31 ? (v as number) : null;
  };
  if (typeof d.model_type !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(d.model_type)) return null;
  return {
    model_type: d.model_type,
    layers: count('num_hidden_layers', 'n_layer', 'num_layers'),
    vocab: count('vocab_size'),
  };
}

/**
 * `init --tool NAME`: a runner skeleton in `<spec's directory>/runners/NAME` (specs/runners/NAME without
 * --spec), where a spec's own runners live, and the lines that declare it in the spec.
 */
function initTool(name: string, opts: InitOptions): void {
  const files = toolSkeleton({ name, library: opts.library ?? null });
  const specDir = path.resolve(opts.spec ? path.dirname(opts.spec) : 'specs');
  const dir = path.join(specDir, 'runners', name);
  if (fs.existsSync(dir) && !opts.force)
    throw new UserError(`${dir} exists; choose another name, or pass --force to overwrite its files.`);
  // A clone may plant runners/ (or the tool's folder) as a link out of the spec's tree: nothing is written there.
  for (const p of [path.join(specDir, 'runners'), dir]) {
    const why = leavesRoots(p, [specDir]);
    if (why && lexists(p))
      throw new UserError(
        `${p} is ${why} the spec's directory ${specDir}; init writes a runner only inside it. Remove the link, or choose another --spec.`,
      );
  }
  for (const [rel, text] of Object.entries(files)) writeAtomic(path.join(dir, rel), text);
  const shown = path.relative(process.cwd(), dir) || dir;
  const runnerPath = path.relative(specDir, dir).split(path.sep).join('/');
  const spec = opts.spec ? path.relative(process.cwd(), path.resolve(opts.spec)) || opts.spec : 'SPEC';
  process.stderr.write(
    `benchgrid: wrote ${shown}/ (manifest.json, ${name}_adapters/${name}_.py). ${missingSpec(opts.spec, spec)}Add to ${opts.spec ? spec : 'your spec'}:\n\n${specSnippet(name, runnerPath, opts.library ?? null)}\nThen: benchgrid validate ${spec}, and benchgrid run ${spec} --only 'A/single_module_output/hooks/*,A/single_module_output/${name}*/*' --processes 1 for its first cell beside the group's reference (hooks in the starter spec). The walk-through: docs/adding-a-tool.md\n`,
  );
}

/**
 * The line `--spec` deserves when it names no file yet: the runner is written all the same (it only
 * needs the spec's directory), and the starter spec is one command away, under that very name.
 */
function missingSpec(given: string | undefined, shown: string): string {
  if (given === undefined || fs.existsSync(path.resolve(given))) return '';
  return `${shown} does not exist yet: \`benchgrid init ${shown}\` writes a starter spec there (raw, forward hooks and nnsight on ResNet-18) to add the tool to. `;
}
