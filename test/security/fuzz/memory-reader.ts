// The spec reader of the fuzz suite: specs and the bases they extend live in a map, so that thousands of
// loads touch no disk; a path the map lacks is the missing file the real reader would report.
import type { Reader } from '../../../src/spec/extends.ts';

/** A Reader over `files` (path to text), read when each file is asked for, so that tests may change them. */
export function memoryReader(files: Map<string, string>): Reader {
  return async (file) => {
    const text = files.get(file);
    return text === undefined
      ? {
          ok: false,
          diagnostic: {
            severity: 'error',
            code: 'missing-file',
            file,
            line: 1,
            col: 1,
            path: '',
            message: 'no such file.',
          },
        }
      : { ok: true, text };
  };
}
