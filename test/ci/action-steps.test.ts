// The action's scripted steps run as GitHub would run them, on a local git repository, with the API at a
// local HTTP server ($GITHUB_API_URL); and the verdict step's shell, run as its step does.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tmpdir, write } from '../helpers.ts';
import { makeToolRepo, writeSourcedSpec } from '../source/tool-repo.ts';
import { step } from './action-fixtures.ts';

/** Runs a script of the action as its step does, in `cwd`, with the step's environment. */
async function script(name: string, env: Record<string, string>) {
  return execa(process.execPath, [path.join(ROOT, 'bin/node-ts.js'), path.join(ROOT, `scripts/action/${name}.ts`)], {
    cwd: env.GITHUB_WORKSPACE,
    env: { NO_COLOR: '1', ...env },
    reject: false,
    timeout: 300_000,
  });
}

const outputsOf = (file: string) =>
  Object.fromEntries(
    fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

/**
 * A stand-in for the API as the default GITHUB_TOKEN sees it: GET /user refused to an installation token,
 * comments listed (paginated), created as github-actions[bot] and updated; each request recorded.
 */
function fakeApi() {
  const comments: { id: number; body: string; user: { login: string; id: number; type: string } }[] = [
    { id: 1, body: 'an unrelated comment', user: { login: 'octocat', id: 583231, type: 'User' } },
  ];
  const requests: { method: string; url: string; auth: string | undefined; body: string }[] = [];
  let deny = false;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      if (deny) return res.writeHead(403).end('{"message":"Resource not accessible by integration"}');
      const json = (v: unknown, code = 200) =>
        res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      if (req.method === 'GET' && req.url === '/user')
        return json({ message: 'Resource not accessible by integration' }, 403);
      if (req.method === 'GET' && /\/repos\/o\/tool\/issues\/7\/comments\?per_page=100&page=1$/.test(req.url!))
        return json(comments);
      if (req.method === 'POST' && req.url === '/repos/o/tool/issues/7/comments') {
        const c = {
          id: 100 + comments.length,
          body: JSON.parse(body).body,
          user: { login: 'github-actions[bot]', id: 41898282, type: 'Bot' },
        };
        comments.push(c);
        return json(c, 201);
      }
      const patch = req.url!.match(/^\/repos\/o\/tool\/issues\/comments\/(\d+)$/);
      if (req.method === 'PATCH' && patch) {
        comments.find((c) => c.id === Number(patch[1]))!.body = JSON.parse(body).body;
        return json({ id: Number(patch[1]) });
      }
      res.writeHead(404).end('{}');
    });
  });
  return { server, comments, requests, deny: (on: boolean) => (deny = on) };
}

describe("the action's scripted steps, run here", () => {
  let dir: string;
  let repo: string;
  let commit: string;
  let env: Record<string, string>;
  const api = fakeApi();

  beforeAll(async () => {
    dir = tmpdir();
    repo = path.join(dir, 'tool');
    commit = await makeToolRepo(repo);
    const spec = writeSourcedSpec(dir, {
      protocol:
        '{ warmups: 1, samples: 3, processes: 1, min_samples: 3, budget_s_per_cell: 5, memory_runs: 0, aa_pairs: 0, timeout_s: 120 }',
      raw: false,
    });
    const event = write(
      dir,
      'event.json',
      JSON.stringify({ pull_request: { number: 7, base: { sha: commit }, head: { sha: commit } } }),
    );
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    env = {
      GITHUB_WORKSPACE: repo,
      GITHUB_EVENT_PATH: event,
      RUNNER_TEMP: path.join(dir, 'runner-temp'),
      RUNNER_OS: 'Linux',
      GITHUB_REPOSITORY: 'o/tool',
      GITHUB_API_URL: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`,
      GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md'),
      INPUT_TOOL: 'hookkit',
      INPUT_SPEC: spec,
      INPUT_THRESHOLD: '5',
    };
  });
  afterAll(() => api.server.close());

  it("prepare: resolves the spec and the pull request's base commit, and keys the environments", async () => {
    const out = write(dir, 'prepare.out', '');
    const r = await script('prepare', { ...env, GITHUB_OUTPUT: out });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const o = outputsOf(out);
    expect(o).toMatchObject({
      tool: 'hookkit',
      base: commit,
      head: repo,
      'spec-name': 'sourced',
      marker: '<!-- benchgrid:bench-change tool=hookkit spec=sourced -->',
    });
    expect(o['cache-key']).toMatch(/^benchgrid-envs-v1-Linux-[0-9a-f]{16}$/);
    Object.assign(env, { SPEC: o.spec, TOOL: o.tool, BASE: o.base, HEAD_DIR: o.head, OUT: o.out, MARKER: o.marker });
    const builtin = await script('prepare', {
      ...env,
      INPUT_SPEC: 'builtin:resnet18_cpu',
      GITHUB_OUTPUT: write(dir, 'p2.out', ''),
    });
    expect(builtin.exitCode).toBe(0);
    for (const [input, message] of [
      [{ INPUT_SPEC: 'builtin:nope' }, /spec: 'builtin:nope' is not one of benchgrid's specs \(builtin:.*resnet18_cpu/],
      [{ INPUT_TOOL: 'a b' }, /tool: 'a b' is not a tool or package name/],
      [{ INPUT_BASE_REF: 'no-such-branch' }, /base-ref: git knows no revision 'no-such-branch'/],
      [{ GITHUB_EVENT_PATH: '' }, /base-ref: not given, and this event is not a pull request/],
      [{ INPUT_PATH: '../elsewhere' }, /path: '\.\.\/elsewhere' is outside the repository/],
      [{ INPUT_BASE_REF: '--upload-pack=x' }, /base-ref: '--upload-pack=x' starts with '-'/],
    ] as const) {
      const bad = await script('prepare', { ...env, ...input, GITHUB_OUTPUT: write(dir, 'bad.out', '') });
      expect(bad.exitCode).toBe(2);
      expect(bad.stdout).toMatch(new RegExp(`::error::${message.source}`));
    }
  }, 300_000);

  it('bench: runs bench-change of the checkout against the base, writes the marked markdown and the job summary, and records the exit status', async () => {
    const out = write(dir, 'bench.out', '');
    const r = await script('bench', {
      ...env,
      INPUT_ONLY: 'A/single_module_output/*/*',
      INPUT_PROCESSES: '1',
      GITHUB_OUTPUT: out,
    });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const o = outputsOf(out);
    expect(o.status).toBe('0');
    const markdown = fs.readFileSync(o.markdown, 'utf8');
    expect(markdown.split('\n')[0]).toBe(env.MARKER);
    expect(markdown).toMatch(/\| base \| `git:.*@[0-9a-f]{40}` \| `1\.0\.0\+git\.[0-9a-f]{7}` \|/);
    expect(fs.readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')).toContain(markdown);
    env.MARKDOWN = o.markdown;
    // bench-change that cannot run: the comment says why, and the status says it for the verdict.
    const failed = write(dir, 'failed.out', '');
    const f = await script('bench', {
      ...env,
      TOOL: 'nosuchtool',
      OUT: path.join(dir, 'failed-run'),
      GITHUB_OUTPUT: failed,
    });
    expect(f.exitCode).toBe(0);
    expect(outputsOf(failed).status).toBe('2');
    const why = fs.readFileSync(outputsOf(failed).markdown, 'utf8');
    expect(why).toMatch(
      /^<!-- benchgrid:bench-change tool=hookkit spec=sourced -->\n## benchgrid bench-change: `nosuchtool` could not be measured \(exit 2\)/,
    );
    expect(why).toMatch(/has no tool or package named 'nosuchtool'/);
  }, 300_000);

  it("comment: creates the marked comment once, then updates it in place, never another author's marked comment; a refused token is a clear error", async () => {
    // Someone posts a comment starting with the marker before the action's first run.
    const forged = `${env.MARKER}\nplanted by a commenter, who can edit it later`;
    api.comments.push({ id: 2, body: forged, user: { login: 'mallory', id: 666, type: 'User' } });
    const first = await script('comment', { ...env, GITHUB_TOKEN: 't0ken', GITHUB_OUTPUT: write(dir, 'c1.out', '') });
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toMatch(/comment=created/);
    fs.appendFileSync(env.MARKDOWN, '\nA later push.\n');
    const second = await script('comment', { ...env, GITHUB_TOKEN: 't0ken', GITHUB_OUTPUT: write(dir, 'c2.out', '') });
    expect(second.stdout).toMatch(/comment=updated/);
    expect(second.stdout).toMatch(/comment-id=102/);
    expect(api.comments.map((c) => [c.user.login, c.body.split('\n')[0]])).toEqual([
      ['octocat', 'an unrelated comment'],
      ['mallory', env.MARKER],
      ['github-actions[bot]', env.MARKER],
    ]);
    expect(api.comments[1].body).toBe(forged);
    expect(api.comments[2].body).toMatch(/A later push\.\n$/);
    expect(api.requests.map((q) => `${q.method} ${q.url.replace(/\?.*/, '')}`)).toEqual([
      'GET /user',
      'GET /repos/o/tool/issues/7/comments',
      'POST /repos/o/tool/issues/7/comments',
      'GET /user',
      'GET /repos/o/tool/issues/7/comments',
      'PATCH /repos/o/tool/issues/comments/102',
    ]);
    expect(new Set(api.requests.map((q) => q.auth))).toEqual(new Set(['Bearer t0ken']));
    // A markdown file over GitHub's limit (edited after the bench step) is cut before it is sent.
    fs.appendFileSync(env.MARKDOWN, `${'| row | x |\n'.repeat(7000)}`);
    const long = await script('comment', {
      ...env,
      GITHUB_TOKEN: 't0ken',
      GITHUB_OUTPUT: write(dir, 'c2b.out', ''),
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: '42',
    });
    expect(long.stdout).toMatch(/comment=updated/);
    expect(api.comments[2].body.length).toBeLessThanOrEqual(65_536);
    expect(api.comments[2].body).toMatch(
      /\*\*This comment was cut here\*\* .* job summary \(https:\/\/github\.com\/o\/tool\/actions\/runs\/42\)\.\n$/,
    );
    api.deny(true);
    const denied = await script('comment', { ...env, GITHUB_TOKEN: 't0ken', GITHUB_OUTPUT: write(dir, 'c3.out', '') });
    expect(denied.exitCode).toBe(2);
    expect(denied.stdout).toMatch(/::error::GET .*HTTP 403 .*The token needs `pull-requests: write`/);
    const noPr = await script('comment', {
      ...env,
      GITHUB_EVENT_PATH: write(dir, 'push.json', '{"ref":"refs/heads/main"}'),
      GITHUB_OUTPUT: write(dir, 'c4.out', ''),
    });
    expect(noPr.stdout).toMatch(/comment=none/);
  }, 300_000);

  it('verdict: passes on 0, fails on 4 (slower beyond the threshold), 5 (cells in error on a side) and on any other status', async () => {
    const run = (status: string) =>
      execa('bash', ['-e', '-c', step('Verdict').run!], {
        env: { STATUS: status, TOOL: 'hookkit', THRESHOLD: '5' },
        reject: false,
      });
    const [ok, slower, errors, broken] = await Promise.all(['0', '4', '5', '3'].map(run));
    expect([ok.exitCode, slower.exitCode, errors.exitCode, broken.exitCode]).toEqual([0, 1, 1, 1]);
    expect(errors.stdout).toMatch(/::error::benchgrid: some of hookkit's cells ended in error on the base or the head/);
    expect(slower.stdout).toMatch(/::error::benchgrid: hookkit is significantly slower than its base by more than 5%/);
    expect(broken.stdout).toMatch(/::error::benchgrid bench-change could not finish \(exit 3\)/);
  });
});
