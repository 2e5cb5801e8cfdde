// Issue 15, hostile results files: refused field by field with the file and the field named (exit 2
// from the CLI, never a stack trace); what is accepted is data in every output, never markup or
// terminal control.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderTable } from '../../src/report/table.ts';
import { cli, tmpdir, write } from '../helpers.ts';
import { tinyResultsJson } from '../report/tiny-results.ts';
import { edited, refusal } from './hostile-files.ts';

let dir: string;
beforeAll(() => {
  dir = tmpdir('benchgrid-security-results-');
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path
const A = 'A/single_module_output/raw/resnet18';

function mutated(edit: (r: Json) => void): Json {
  return edited(tinyResultsJson(), edit);
}

describe('a hostile results file is refused naming the field', () => {
  it.each<[string, (r: Json) => void, RegExp]>([
    [
      'per_process[].index is markup',
      (r) => {
        r.resnet18.groups[A].per_process[0].index = '</script><script>alert(1)</script>';
      },
      /resnet18\.groups\["A\/single_module_output\/raw\/resnet18"\]\.per_process\[0\]\.index: expected a whole number from 0 to 10,000 \(got "<\/script>/,
    ],
    [
      'groups: null',
      (r) => {
        r.resnet18.groups = null;
      },
      /resnet18\.groups: expected a mapping \(got null\)/,
    ],
    [
      'a cell that is null',
      (r) => {
        r.resnet18.groups[A] = null;
      },
      /groups\["A\/single_module_output\/raw\/resnet18"\]: expected a mapping \(got null\)/,
    ],
    [
      'a reason that is a number',
      (r) => {
        r.resnet18.groups[A].reason = 42;
      },
      /\.reason: expected text or null \(got number 42\)/,
    ],
    [
      'samples_ms: ["a", null]',
      (r) => {
        r.resnet18.groups[A].samples_ms = ['a', null];
      },
      /\.samples_ms\[0\]: expected a list \(got "a"\)/,
    ],
    [
      'a sample that is not a number',
      (r) => {
        r.resnet18.groups[A].samples_ms = [['a', null]];
      },
      /\.samples_ms\[0\]\[0\]: expected a time in milliseconds from 0\.000001 \(a nanosecond\) to 86,400,000 \(one day\) \(got "a"\)/,
    ],
    [
      'a status outside the three',
      (r) => {
        r.resnet18.groups[A].status = 'pwned';
      },
      /\.status: expected one of ok, unsupported, error/,
    ],
    [
      'meta that is a list',
      (r) => {
        r.resnet18.meta = [];
      },
      /resnet18\.meta: expected a mapping \(got a list\)/,
    ],
    [
      'versions holding a mapping',
      (r) => {
        r.versions = { torch: { x: 1 } };
      },
      /versions\.torch: expected text or null \(got a mapping\)/,
    ],
  ])('%s', (_, edit, pattern) => {
    expect(refusal(mutated(edit))).toMatch(pattern);
  });

  it('a results file nested 100,000 deep is refused, not a stack overflow', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(
      refusal(
        mutated((r) => {
          r.host = { x: deep };
        }),
      ),
    ).toMatch(/nested deeper than 64 levels/);
  });

  it('report exits 2 on such a file with one line naming it, and no stack trace', async () => {
    const file = write(
      dir,
      'null-groups.results.json',
      JSON.stringify(
        mutated((r) => {
          r.resnet18.groups = null;
        }),
      ),
    );
    for (const format of ['table', 'html', 'markdown', 'json']) {
      const r = await cli(['report', file, '--format', format]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /null-groups\.results\.json: resnet18\.groups: expected a mapping \(got null\)\. Give a results file/,
      );
      expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    }
    const c = await cli(['compare', file, file]);
    expect(c.code).toBe(2);
    expect(c.stderr).not.toMatch(/\n\s+at |internal error/);
  });
});

describe('what a results file may say is data in every output', () => {
  const script = '</script><script>alert(1)</script>';

  it('the HTML report escapes markup everywhere and allows only its own scripts', () => {
    const raw = mutated((r) => {
      r.resnet18.groups['A/replacement_edit/raw/resnet18'].reason = script;
      r.host.name = script;
      r.versions.torch = script;
      r.resnet18.groups[A].tool_version = script;
    });
    const html = renderHtml({ results: fromJson(raw, 'x.json'), spec: null, libraries: {} }, '/* chart stub */');
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toEqual(['<script type="application/json" id="benchgrid-data">', '<script>', '<script>']);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)![1];
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+';/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('ANSI escape sequences in a group title or a reason reach the terminal escaped', async () => {
    const evil = '\u001b[2J\u001b]0;pwned\u0007cleared';
    const raw = mutated((r) => {
      r.resnet18.groups['A/replacement_edit/raw/resnet18'].reason = evil;
    });
    const file = write(dir, 'ansi.results.json', JSON.stringify(raw));
    const spec = write(
      dir,
      'ansi.yaml',
      fs
        .readFileSync(
          path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/report/tiny-report.yaml'),
          'utf8',
        )
        .replace(/^title: .*$/m, `title: "\\e[2J\\e]0;title\\a"`),
    );
    const r = await cli(['report', file, '--spec', spec, '--format', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/[\u0007\u001b\u009b]/);
    expect(r.stdout).toContain('\\u001b[2J\\u001b]0;pwned\\u0007cleared');
    // The renderer escapes it itself (src/util/escape.ts); the CLI boundary's guard is the second line.
    const table = renderTable({ results: fromJson(raw), spec: null, libraries: {} }, false);
    expect(table).not.toContain(evil);
    expect(table).toContain('\\u001b[2J\\u001b]0;pwned\\u0007cleared');
  });
});
