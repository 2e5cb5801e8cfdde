// Whether a hub id's files are in the local Hugging Face cache, as huggingface_hub lays it out
// (HF_HUB_CACHE, else HF_HOME/hub, else XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub;
// models--ORG--NAME/snapshots/REVISION/). Validation only looks at whether a snapshot with a config.json
// exists; `init` reads that config.json as data (the architecture and its depth). The id (HUB_ID) cannot name
// a path outside the cache.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The cache directory huggingface_hub uses under `env`. */
export function hubCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HF_HUB_CACHE) return env.HF_HUB_CACHE;
  if (env.HF_HOME) return path.join(env.HF_HOME, 'hub');
  const xdg = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(xdg, 'huggingface', 'hub');
}

/** Files of a tokenizer: a snapshot or directory holding one of them holds a tokenizer. */
export const TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json'];

/** Where huggingface_hub keeps the snapshots of model `id` (ORG/NAME or NAME). */
function snapshotsOf(id: string, env: NodeJS.ProcessEnv): string {
  return path.join(hubCacheDir(env), `models--${id.split('/').join('--')}`, 'snapshots');
}

/** Whether some snapshot of model `id` (ORG/NAME or NAME) holds one of `files` (a config.json) in the local cache. */
export function hubCached(
  id: string,
  env: NodeJS.ProcessEnv = process.env,
  files: readonly string[] = ['config.json'],
): boolean {
  const snapshots = snapshotsOf(id, env);
  try {
    return fs.readdirSync(snapshots).some((rev) => files.some((f) => fs.existsSync(path.join(snapshots, rev, f))));
  } catch {
    return false;
  }
}

/** The config.json of some cached snapshot of `id` (a regular file), or null when none is here. */
export function hubConfigFile(id: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const snapshots = snapshotsOf(id, env);
  try {
    for (const rev of fs.readdirSync(snapshots).sort()) {
      const file = path.join(snapshots, rev, 'config.json');
      if (fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
    }
  } catch {
    // no snapshot of it here
  }
  return null;
}
