// docs/protocol.md ("A parameter's way") counts the functions through which the spec's protocol.samples
// reaches the harness's stop rule. This test keeps that count true as the code moves: every function of the
// way is defined in the file the docs name and its body reads the value (or the table, or the object it
// makes), the docs name each one, and the way stays within 10 functions in 6 files.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

const H = 'runners/harness/benchgrid_harness';

/** The way of a process that does not pair, then the paired one's: [file, function, what its body names]. */
const WAY: [string, string, RegExp][] = [
  ['src/spec/normalise.ts', 'protocolOf', /DEFAULT_PROTOCOL/],
  ['src/settings/settings.ts', 'runSettings', /samples/],
  ['src/run/jobs.ts', 'buildRequest', /harnessSettings\(protocol\)/],
  ['src/settings/settings.ts', 'harnessSettings', /PROTOCOL_TABLE/],
  [`${H}/protocol.py`, 'settings_problems', /_fits/],
  [`${H}/protocol.py`, '_fits', /value/],
  [`${H}/timing.py`, 'sample', /limits\.samples/],
  [`${H}/timing.py`, 'limits_of', /samples/],
  [`${H}/timing.py`, 'stop_reason', /limits\.samples/],
];
const PAIRED: [string, string, RegExp][] = [
  ...WAY.filter(([, name]) => name !== 'sample'),
  [`${H}/timing.py`, 'timed_pairs', /limits_of/],
  [`${H}/timing.py`, 'sample_pairs', /limits\.samples/],
];

/** The text of a function's definition: from its `function NAME(` or `def NAME(` to the next top-level one. */
function body(file: string, name: string): string | null {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const start = text.search(new RegExp(`^(export )?(function |def )${name}\\(`, 'm'));
  if (start < 0) return null;
  const rest = text.slice(start + 1);
  const next = rest.search(/^(export |def |function |class |\S.*= )/m);
  return next < 0 ? rest : rest.slice(0, next);
}

describe("protocol.samples' way from the spec to the stop rule", () => {
  it.each([...WAY, ...PAIRED.slice(-2)])('%s defines %s, which reads the value', (file, name, names) => {
    const text = body(file, name);
    expect(text, `${name} in ${file}`).not.toBeNull();
    expect(text!).toMatch(names);
  });

  it('stays within 10 functions in 6 files, paired or not', () => {
    for (const way of [WAY, PAIRED]) {
      expect(way.length).toBeLessThanOrEqual(10);
      expect(new Set(way.map(([file]) => file)).size).toBeLessThanOrEqual(6);
    }
  });

  it('is the way docs/protocol.md counts', () => {
    const docs = fs.readFileSync(path.join(ROOT, 'docs/protocol.md'), 'utf8');
    const paragraph = docs.slice(docs.indexOf("**A parameter's way.**"), docs.indexOf('## The schedule'));
    for (const [, name] of PAIRED) expect(paragraph).toContain(`\`${name}\``);
    expect(paragraph).toContain(`**${WAY.length} functions in ${new Set(WAY.map(([f]) => f)).size} files**`);
    expect(paragraph).toContain(`**${PAIRED.length} functions in ${new Set(PAIRED.map(([f]) => f)).size} files**`);
  });
});
