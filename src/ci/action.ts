// The scripted steps of the GitHub Action (action.yml), as functions of their environment: the inputs
// arrive as INPUT_* variables (never spliced into a script), GitHub's own as GITHUB_*. Each returns what
// the step writes to $GITHUB_OUTPUT; scripts/action/*.ts call them, a test calls them with a local
// repository and a local API server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { changeMarker } from '../change/render.ts';
import { EXIT, UserError } from '../errors.ts';
import { commitOf } from '../source/git.ts';
import { resolveEnv } from '../env/build.ts';
import type { Spec } from '../spec/types.ts';
import { loadDeclaredSpec } from '../spec/load.ts';
import { REPO_ROOT } from '../repository.ts';
import { forMarkdownCode, forTerminal } from '../util/escape.ts';
import { commentLength, COMMENT_LIMIT, fitComment, pullRequestOf, upsertComment } from './github.ts';

/** The environment a step reads. */
export type StepEnv = Record<string, string | undefined>;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function input(env: StepEnv, name: string, fallback = ''): string {
  return (env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] ?? fallback).trim() || fallback;
}

/** `builtin:NAME` is one of benchgrid's own specs; anything else a path in the workspace. */
export function specPath(value: string, workspace: string): string {
  if (value.startsWith('builtin:')) {
    const name = value.slice(8);
    const file = path.join(REPO_ROOT, 'specs', `${name}.yaml`);
    if (!NAME.test(name) || !fs.existsSync(file)) {
      const known = fs
        .readdirSync(path.join(REPO_ROOT, 'specs'))
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => `builtin:${f.slice(0, -5)}`);
      throw new UserError(`spec: '${value}' is not one of benchgrid's specs (${known.join(', ')}).`);
    }
    return file;
  }
  const file = path.resolve(workspace, value);
  if (!fs.existsSync(file))
    throw new UserError(`spec: ${value}: no such file in the repository. Give a spec path, or builtin:resnet18_cpu.`);
  return file;
}

/**
 * The cache key of a spec's environments: the keys resolveEnv gives them (interpreter path and version,
 * requirements), with the runner's OS, so the key changes exactly when the environments would be rebuilt.
 */
export async function envCacheKey(spec: Spec, os: string): Promise<string> {
  const keys = await Promise.all(
    Object.values(spec.environments).map(async (e) => `${e.id}-${(await resolveEnv(e)).key}`),
  );
  const hash = crypto.createHash('sha256').update(keys.sort().join('\n')).digest('hex').slice(0, 16);
  return `benchgrid-envs-v1-${os}-${hash}`;
}

/** Step "prepare": which spec, which base commit (fetched when a shallow checkout lacks it), the cache key. */
export async function prepare(env: StepEnv): Promise<Record<string, string>> {
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  const tool = input(env, 'tool');
  if (!NAME.test(tool))
    throw new UserError(`tool: '${tool}' is not a tool or package name (letters, digits, '.', '_', '-').`);
  const spec = specPath(input(env, 'spec', 'builtin:resnet18_cpu'), workspace);
  const head = path.resolve(workspace, input(env, 'path', '.'));
  if (path.relative(path.resolve(workspace), head).startsWith('..'))
    throw new UserError(`path: '${input(env, 'path')}' is outside the repository.`);
  const rev = input(env, 'base-ref') || pullRequestOf(env.GITHUB_EVENT_PATH)?.base;
  if (!rev)
    throw new UserError(
      'base-ref: not given, and this event is not a pull request; give the revision to compare against (e.g. main).',
    );
  if (rev.startsWith('-')) throw new UserError(`base-ref: '${rev}' starts with '-'.`);
  let base = await commitOf(workspace, rev);
  if (base === null) {
    // A shallow checkout (actions/checkout's default) lacks the base: fetch that one commit or branch.
    await execa('git', ['-C', workspace, 'fetch', '--no-tags', '--quiet', 'origin', rev], { reject: false });
    base = (await commitOf(workspace, rev)) ?? (await commitOf(workspace, `origin/${rev}`));
  }
  if (base === null)
    throw new UserError(`base-ref: git knows no revision '${rev}' here, even after fetching it from origin.`);
  const loaded = await loadDeclaredSpec(spec);
  const key = await envCacheKey(loaded, env.RUNNER_OS ?? process.platform);
  const out = path.join(env.RUNNER_TEMP ?? path.join(workspace, '..'), 'benchgrid-change');
  return {
    spec,
    'spec-name': loaded.name,
    tool,
    base,
    head,
    'cache-key': key,
    out,
    marker: changeMarker(tool, loaded.name),
  };
}

/** Lines of bench-change's stderr kept in the comment when it could not finish. */
const ERROR_TAIL_LINES = 25;
/** What the comment adds when bench-change exits 5. */
const CELL_ERRORS_NOTE = `\n> **Some cells ended in error** on the base or the head (exit ${EXIT.cellErrors}): the comparison above covers what both sides measured and lists each status change; the job log's run summary gives each cause.\n`;

/**
 * Step "bench": bench-change of the tool's directory against the base commit, its progress on the job's
 * log; the markdown goes to a file (the comment's text, cut to GitHub's limit) and the whole of it to the
 * job summary, and, when bench-change could not finish (bad input, an environment that does not build),
 * the comment says why; when cells ended in error (exit 5) the comparison is kept with a note. Never
 * fails itself: `status` is bench-change's exit code, for the verdict step.
 */
export async function bench(env: StepEnv): Promise<Record<string, string>> {
  const need = (k: string) =>
    env[k] ||
    (() => {
      throw new UserError(`${k} is not set: run the prepare step first.`);
    })();
  const [spec, tool, base, head, out, marker] = ['SPEC', 'TOOL', 'BASE', 'HEAD_DIR', 'OUT', 'MARKER'].map(need);
  const threshold = input(env, 'threshold', '5');
  if (!/^\d+(\.\d+)?$/.test(threshold)) throw new UserError(`threshold: '${threshold}' is not a percentage (e.g. 5).`);
  const args = [
    'bench-change',
    spec,
    '--tool',
    tool,
    '--base',
    `git:${head}@${base}`,
    '--head',
    head,
    '--out',
    out,
    '--format',
    'markdown',
    '--fail-on-slower',
    threshold,
  ];
  if (input(env, 'only')) args.push('--only', input(env, 'only'));
  if (input(env, 'processes')) args.push('--processes', input(env, 'processes'));
  const r = await execa(process.execPath, [path.join(REPO_ROOT, 'bin/benchgrid.js'), ...args], {
    cwd: env.GITHUB_WORKSPACE ?? process.cwd(),
    reject: false,
    stdin: 'ignore',
    stderr: ['pipe', 'inherit'],
    env: { NO_COLOR: '1' },
  });
  const status = r.exitCode ?? 1;
  // 5: the run finished with cells in error on a side; the comparison of the rest is still the answer.
  const finished = status === 0 || status === 4 || status === EXIT.cellErrors;
  const full = finished
    ? String(r.stdout) + (status === EXIT.cellErrors ? CELL_ERRORS_NOTE : '')
    : failure(marker, tool, status, String(r.stderr), runLink(env));
  const markdown = fitComment(full, `the whole comparison is in this run's job summary${runLink(env)}.`);
  const file = `${out}.md`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, markdown);
  if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, `${full}\n`);
  return { status: String(status), markdown: file };
}

/**
 * This workflow run's page, which holds the job summary and the job log, as ` (URL)` to follow a place
 * in a sentence; nothing when GitHub's variables do not name one.
 */
export function runLink(env: StepEnv): string {
  const [server, repository, run] = [env.GITHUB_SERVER_URL ?? '', env.GITHUB_REPOSITORY ?? '', env.GITHUB_RUN_ID ?? ''];
  if (
    !/^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$/.test(server) ||
    !/^[\w.-]+\/[\w.-]+$/.test(repository) ||
    !/^\d+$/.test(run)
  )
    return '';
  return ` (${server}/${repository}/actions/runs/${run})`;
}

/**
 * The comment when bench-change could not finish: the end of its error output in a code block, within
 * GitHub's limit. The whole output is in the job log (the step's stderr goes there as it runs).
 */
export function failure(marker: string, tool: string, status: number, stderr: string, link = ''): string {
  const head = [
    marker,
    `## benchgrid bench-change: ${forMarkdownCode(tool)} could not be measured (exit ${status})`,
    '',
    `The end of its error output; the whole of it is in the job log, step "Measure base and head"${link}:`,
    '',
    '```',
  ];
  const room = COMMENT_LIMIT - commentLength([...head, '```', ''].join('\n'));
  return [...head, ...errorTail(stderr, room), '```', ''].join('\n');
}

/**
 * The last lines of `stderr` (at most ERROR_TAIL_LINES) as lines of a code block, each `codeLine`d, that
 * fit in `room` characters (a line and its line break); of a last line longer than that, its end, after `…`.
 */
export function errorTail(stderr: string, room: number): string[] {
  const kept: string[] = [];
  let left = room;
  for (const line of stderr.trimEnd().split(/\r?\n/).slice(-ERROR_TAIL_LINES).reverse()) {
    const shown = codeLine(line);
    if (commentLength(shown) + 1 > left) {
      if (kept.length === 0 && left > 2) kept.push(`…${endOf(line, left - 2)}`);
      break;
    }
    kept.unshift(shown);
    left -= commentLength(shown) + 1;
  }
  return kept;
}

/**
 * A line of error output as a line of a code block, whose content is shown as it is: controls, bidirectional
 * and zero-width characters as `\u001b`-style escapes (a terminal's colours, or text that reads differently
 * than it is), and every run of three backticks as `'''`, so that no line ends the block.
 */
export function codeLine(line: string): string {
  return forTerminal(line).replace(/```/g, "'''");
}

/**
 * The longest end of `line` whose codeLine is at most `room` characters. Escaping makes text up to six
 * times longer, so the cut is found on the escaped text's length, by bisection, never inside a character.
 */
function endOf(line: string, room: number): string {
  let [lo, hi] = [0, line.length];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (commentLength(codeLine(line.slice(line.length - mid))) <= room) lo = mid;
    else hi = mid - 1;
  }
  const start = line.length - lo;
  const low = line.charCodeAt(start);
  return codeLine(line.slice(low >= 0xdc00 && low <= 0xdfff ? start + 1 : start));
}

/** Step "comment": posts or updates the pull request's comment under the marker; nothing on other events. */
export async function comment(env: StepEnv): Promise<Record<string, string>> {
  const pr = pullRequestOf(env.GITHUB_EVENT_PATH);
  if (!pr) return { comment: 'none' };
  if (!env.GITHUB_TOKEN)
    throw new UserError('github-token is empty: the comment needs a token with pull-requests: write.');
  // The bench step fits its comment already; the file is fitted again in case it was edited since.
  const body = fitComment(
    fs.readFileSync(env.MARKDOWN ?? '', 'utf8'),
    `the whole text is in this run's job summary${runLink(env)}.`,
  );
  const target = {
    api: env.GITHUB_API_URL ?? 'https://api.github.com',
    repository: env.GITHUB_REPOSITORY ?? '',
    issue: pr.number,
    token: env.GITHUB_TOKEN,
  };
  const r = await upsertComment(target, env.MARKER ?? '', body);
  return { comment: r.action, 'comment-id': String(r.id) };
}
