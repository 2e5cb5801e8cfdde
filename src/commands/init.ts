// `benchgrid init [FILE]`: writes a starter spec for a torchvision or Hugging Face model.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { starterSpec } from '../init/starter.ts';
import { REPO_ROOT } from '../spec/manifests.ts';

/** Options of `init`. */
export interface InitOptions {
  model?: string;
  site?: string;
  device?: 'cpu' | 'cuda';
  name?: string;
  force?: boolean;
}

/** Writes the starter spec to `file` (default specs/<name>.yaml), never over an existing file without --force. */
export async function init(file: string | undefined, opts: InitOptions): Promise<void> {
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
