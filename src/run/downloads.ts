// `run --allow-downloads`: the one place benchgrid fetches anything for a subject. Hub weights the local
// Hugging Face cache lacks are downloaded once, before the first cell, by huggingface_hub in the cell's own
// interpreter (started with an argument list; the id is an argument, never code). Cell processes stay
// offline (HF_HUB_OFFLINE=1, runners/harness/benchgrid_harness/wire.json) and read the cache.
import { execa } from 'execa';
import { UserError } from '../errors.ts';
import { hubCached } from '../spec/hub-cache.ts';
import type { Spec } from '../spec/types.ts';

const DOWNLOAD = 'import sys\nfrom huggingface_hub import snapshot_download\nprint(snapshot_download(sys.argv[1]))\n';

/** Hub ids of the given subjects' weights that the local cache does not hold, each once. */
export function missingHubWeights(
  spec: Spec,
  subjects: Iterable<string>,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const ids = new Set<string>();
  for (const id of subjects) {
    const w = spec.subjects[id]?.model.weights;
    if (w?.kind === 'hub' && !hubCached(w.id, env)) ids.add(w.id);
  }
  return [...ids];
}

/** Downloads each id with `python`; a failure is the user's to fix (network, name, licence), said with pip-like brevity. */
export async function downloadHubWeights(ids: string[], python: string, log: (s: string) => void): Promise<void> {
  for (const id of ids) {
    log(`downloading hf:${id} into the local Hugging Face cache (--allow-downloads)`);
    const r = await execa(python, ['-c', DOWNLOAD, id], {
      reject: false,
      env: { HF_HUB_OFFLINE: '0', TRANSFORMERS_OFFLINE: '0' },
      stdin: 'ignore',
    });
    if (r.exitCode !== 0) {
      const tail =
        String(r.stderr ?? '')
          .trim()
          .split('\n')
          .slice(-1)[0] ?? '';
      throw new UserError(
        `could not download hf:${id}: ${tail || `exit ${r.exitCode}`}. Check the id and the network, or save the model with save_pretrained and point weights at that directory.`,
      );
    }
  }
}
