// Where the repository's own files live, for the code that reads them: the runners, the harness, the
// schemas. One module owns these paths; src/ and dist/ both sit one level below the root, so the same
// relative step serves the sources and the built CLI.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where runners/ and schemas/ live). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Directory of the built-in runners. */
export const BUILTIN_RUNNERS = path.join(REPO_ROOT, 'runners');

/** The shared Python harness every runner's adapters are executed by. */
export const HARNESS_DIR = path.join(BUILTIN_RUNNERS, 'harness');

/** The JSON Schemas of the spec, the request, the result and the other files benchgrid reads. */
export const SCHEMA_DIR = path.join(REPO_ROOT, 'schemas');
