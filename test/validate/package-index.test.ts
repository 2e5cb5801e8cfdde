// An environment's package indexes (index_url, extra_index_urls, find_links) are a source of code: every value
// pip could misread, and credentials, are refused where the spec writes them; a local directory must exist.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/spec/diagnostics.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { FIXTURES, cli, tmpdir, write } from '../helpers.ts';

let dir: string;

beforeAll(() => {
  dir = tmpdir('benchgrid-index-');
  fs.copyFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), path.join(dir, 'tiny.yaml'));
  fs.mkdirSync(path.join(dir, 'wheels'));
  write(dir, 'a-file', 'not a directory\n');
});

/** The tiny spec with environment `main` given `lines` (each at four spaces, from line 6 on). */
function spec(lines: string[]): string {
  return write(
    dir,
    `s-${Math.random().toString(36).slice(2)}.yaml`,
    [
      'benchgrid: 1',
      'extends: tiny.yaml',
      'environments:',
      '  main:',
      '    requirements: []',
      ...lines.map((l) => `    ${l}`),
      '',
    ].join('\n'),
  );
}

async function errorLines(file: string): Promise<{ code: string; line: string }[]> {
  const loaded = await loadSpec(file);
  return loaded.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => ({ code: d.code, line: formatDiagnostic(d, dir) }));
}

describe("an environment's package index", () => {
  it.each([
    [
      'a control character',
      'https://example.org/\u0001simple',
      /holds a control character .*Write the URL or directory on one line/,
    ],
    [
      'a line break and an option after it',
      'https://example.org/simple\n--trusted-host evil',
      /holds a control character/,
    ],
    ['whitespace', 'wheels dir', /holds whitespace, .*Write a space in a URL as %20/],
    ['a leading -', '--trusted-host=evil.example', /starts with '-', so pip would read it as an option\b.*\.\/-NAME/],
    ['a leading ~', '~/wheels', /starts with '~', which is not expanded/],
    [
      'an unknown scheme',
      'ftp://example.org/simple',
      /names the scheme 'ftp:', which is not an index pip reads here .*Use an https:\/\/, http:\/\/ or file:\/\/ URL/,
    ],
    ['a VCS scheme', 'git+https://example.org/repo.git', /names the scheme 'git\+https:'/],
    ['a URL without //', 'https:example.org/simple', /is not a URL of the form https:\/\/\.\.\./],
    ['a URL without a host', 'https:///simple', /names no host/],
    ['a file: URL of another host', 'file://elsewhere/wheels', /a file: URL of another host/],
  ])('refuses %s, at the value, with what to do', async (_what, value, message) => {
    const [e, ...rest] = await errorLines(spec([`index_url: ${JSON.stringify(value)}`]));
    expect(rest).toEqual([]);
    expect(e.code).toBe('bad-index');
    expect(e.line).toMatch(/^s-\w+\.yaml:6:16 environments\.main\.index_url: /);
    expect(e.line).toMatch(message);
  });

  it('refuses credentials in any of the three keys, without printing them, and says where they belong', async () => {
    const errors = await errorLines(
      spec([
        'index_url: "https://me:s3cret@pypi.example.org/simple"',
        'extra_index_urls: ["https://TOKEN@extra.example.org/simple"]',
        'find_links: [wheels, "http://u:p@links.example.org/"]',
      ]),
    );
    expect(errors.map((e) => e.code)).toEqual(['bad-index', 'bad-index', 'bad-index']);
    expect(errors[0].line).toMatch(
      /:6:16 environments\.main\.index_url: holds credentials \(USER:PASSWORD@ before the host\).* \(got 'https:\/\/\*\*\*@pypi\.example\.org\/simple'\)\. .*pip's configuration \(pip\.conf, PIP_INDEX_URL\), a keyring, or ~\/\.netrc/,
    );
    expect(errors[1].line).toMatch(/:7:24 environments\.main\.extra_index_urls\[0\]: holds credentials/);
    expect(errors[2].line).toMatch(/:8:26 environments\.main\.find_links\[1\]: holds credentials/);
    expect(errors.map((e) => e.line).join('\n')).not.toMatch(/s3cret|TOKEN|u:p@/);
  });

  it('accepts https, http and file URLs and directories relative to the spec or absolute', async () => {
    const errors = await errorLines(
      spec([
        'index_url: https://download.pytorch.org/whl/cpu',
        `extra_index_urls: ["http://mirror.example.org:8080/simple", "${new URL(`file://${path.join(dir, 'wheels')}`).href}"]`,
        `find_links: [wheels, ./wheels, ${path.join(dir, 'wheels')}]`,
      ]),
    );
    expect(errors).toEqual([]);
  });

  it('refuses a local directory that does not exist or is a file; nothing else about it is looked at', async () => {
    const errors = await errorLines(
      spec(['index_url: missing', `find_links: [wheels, a-file, "file://${path.join(dir, 'gone')}"]`]),
    );
    expect(errors.map((e) => e.code)).toEqual(['index-directory', 'index-directory', 'index-directory']);
    expect(errors[0].line).toMatch(
      new RegExp(
        `:6:16 environments\\.main\\.index_url: index_url names the directory ${path.join(dir, 'missing')}, which does not exist\\. Create it \\(an index laid out as PEP 503 says`,
      ),
    );
    expect(errors[1].line).toMatch(
      /:7:26 environments\.main\.find_links\[1\]: find_links names the directory .*a-file, which is not a directory\. Create it \(a directory of wheels\)/,
    );
    expect(errors[2].line).toMatch(
      /:7:34 environments\.main\.find_links\[2\]: find_links names the directory .*gone, which does not exist/,
    );
  });

  it('is refused by validate and by env build with exit 2, before any interpreter starts', async () => {
    const file = spec(['find_links: ["-r/etc/passwd"]']);
    const validate = await cli(['validate', file]);
    expect(validate.code).toBe(2);
    expect(validate.stdout + validate.stderr).toMatch(/:6:18 environments\.main\.find_links\[0\]: starts with '-'/);
    const build = await cli(['env', 'build', file], { env: { BENCHGRID_CACHE: path.join(dir, 'cache') } });
    expect(build.code).toBe(2);
    expect(build.stderr).toMatch(/:6:18 environments\.main\.find_links\[0\]: starts with '-'/);
    expect(fs.existsSync(path.join(dir, 'cache'))).toBe(false);
  });
});
