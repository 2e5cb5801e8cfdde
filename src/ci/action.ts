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
import { loadDeclaredSpec } from '../validate/valid.ts';
import { REPO_ROOT } from '../repository.ts';
import { pullRequestOf, upsertComment } from './github.ts';

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
      const known = fs.readdirSync(path.join(REPO_ROOT, 'specs')).filter((f) => f.endsWith('.yaml')).map((f) => `builtin:${f.slice(0, -5)}`);
      throw new UserError(`spec: '${value}' is not one of benchgrid's specs (${known.join(', ')}).`);
    }
    return file;
  }
  const file = path.resolve(workspace, value);
  if (!fs.existsSync(file)) throw new UserError(`spec: ${value}: no such file in the repository. Give a spec path, or builtin:resnet18_cpu.`);
  return file;
}

/**
 * The cache key of a spec's environments: the keys resolveEnv gives them (interpreter path and version,
 * requirements), with the runner's OS, so the key changes exactly when the environments would be rebuilt.
 */
export async function envCacheKey(spec: Spec, os: string): Promise<string> {
  const keys = await Promise.all(Object.values(spec.environments).map(async (e) => `${e.id}-${(await resolveEnv(e)).key}`));
  const hash = crypto.createHash('sha256').update(keys.sort().join('\n')).digest('hex').slice(0, 16);
  return `benchgrid-envs-v1-${os}-${hash}`;
}

/** Step "prepare": which spec, which base commit (fetched when a shallow checkout lacks it), the cache key. */
export async function prepare(env: StepEnv): Promise<Record<string, string>> {
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  const tool = input(env, 'tool');
  if (!NAME.test(tool)) throw new UserError(`tool: '${tool}' is not a tool or package name (letters, digits, '.', '_', '-').`);
  const spec = specPath(input(env, 'spec', 'builtin:resnet18_cpu'), workspace);
  const head = path.resolve(workspace, input(env, 'path', '.'));
  if (path.relative(path.resolve(workspace), head).startsWith('..')) throw new UserError(`path: '${input(env, 'path')}' is outside the repository.`);
  const rev = input(env, 'base-ref') || pullRequestOf(env.GITHUB_EVENT_PATH)?.base;
  if (!rev) throw new UserError('base-ref: not given, and this event is not a pull request; give the revision to compare against (e.g. main).');
  if (rev.startsWith('-')) throw new UserError(`base-ref: '${rev}' starts with '-'.`);
  let base = await commitOf(workspace, rev);
  if (base === null) {
    // A shallow checkout (actions/checkout's default) lacks the base: fetch that one commit or branch.
    await execa('git', ['-C', workspace, 'fetch', '--no-tags', '--quiet', 'origin', rev], { reject: false });
    base = (await commitOf(workspace, rev)) ?? (await commitOf(workspace, `origin/${rev}`));
  }
  if (base === null) throw new UserError(`base-ref: git knows no revision '${rev}' here, even after fetching it from origin.`);
  const loaded = await loadDeclaredSpec(spec);
  const key = await envCacheKey(loaded, env.RUNNER_OS ?? process.platform);
  const out = path.join(env.RUNNER_TEMP ?? path.join(workspace, '..'), 'benchgrid-change');
  return { spec, 'spec-name': loaded.name, tool, base, head, 'cache-key': key, out, marker: changeMarker(tool, loaded.name) };
}

/** Lines of bench-change's stderr kept in the comment when it could not finish. */
const ERROR_TAIL_LINES = 25;
/** What the comment adds when bench-change exits 5. */
const CELL_ERRORS_NOTE = `\n> **Some cells ended in error** on the base or the head (exit ${EXIT.cellErrors}): the comparison above covers what both sides measured and lists each status change; the job log's run summary gives each cause.\n`;
/** GitHub refuses a comment over 65,536 characters. */
const MAX_COMMENT = 65_000;

/**
 * Step "bench": bench-change of the tool's directory against the base commit, its progress on the job's
 * log; the markdown goes to a file and the job summary, and, when bench-change could not finish (bad
 * input, an environment that does not build), the comment says why; when cells ended in error (exit 5)
 * the comparison is kept with a note. Never fails itself: `status` is
 * bench-change's exit code, for the verdict step.
 */
export async function bench(env: StepEnv): Promise<Record<string, string>> {
  const need = (k: string) => env[k] || (() => { throw new UserError(`${k} is not set: run the prepare step first.`); })();
  const [spec, tool, base, head, out, marker] = ['SPEC', 'TOOL', 'BASE', 'HEAD_DIR', 'OUT', 'MARKER'].map(need);
  const threshold = input(env, 'threshold', '5');
  if (!/^\d+(\.\d+)?$/.test(threshold)) throw new UserError(`threshold: '${threshold}' is not a percentage (e.g. 5).`);
  const args = ['bench-change', spec, '--tool', tool, '--base', `git:${head}@${base}`, '--head', head, '--out', out, '--format', 'markdown', '--fail-on-slower', threshold];
  if (input(env, 'only')) args.push('--only', input(env, 'only'));
  if (input(env, 'processes')) args.push('--processes', input(env, 'processes'));
  const r = await execa(process.execPath, [path.join(REPO_ROOT, 'bin/benchgrid.js'), ...args], { cwd: env.GITHUB_WORKSPACE ?? process.cwd(), reject: false, stdin: 'ignore', stderr: ['pipe', 'inherit'], env: { NO_COLOR: '1' } });
  const status = r.exitCode ?? 1;
  // 5: the run finished with cells in error on a side; the comparison of the rest is still the answer.
  const finished = status === 0 || status === 4 || status === EXIT.cellErrors;
  const markdown = finished ? fitComment(String(r.stdout) + (status === EXIT.cellErrors ? CELL_ERRORS_NOTE : '')) : failure(marker, tool, status, String(r.stderr));
  const file = `${out}.md`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, markdown);
  if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
  return { status: String(status), markdown: file };
}

function failure(marker: string, tool: string, status: number, stderr: string): string {
  const tail = stderr.trimEnd().split('\n').slice(-ERROR_TAIL_LINES).join('\n').replace(/```/g, "'''");
  return [marker, `## benchgrid bench-change: \`${tool}\` could not be measured (exit ${status})`, '', '```', tail, '```', ''].join('\n');
}

/** A comment GitHub accepts: cut at a line below its limit, saying where the rest is. */
export function fitComment(markdown: string): string {
  if (markdown.length <= MAX_COMMENT) return markdown;
  const cut = markdown.lastIndexOf('\n', MAX_COMMENT - 200);
  return `${markdown.slice(0, cut)}\n\n*(cut here: the full comparison is in the job summary and in change.md of the run.)*\n`;
}

/** Step "comment": posts or updates the pull request's comment under the marker; nothing on other events. */
export async function comment(env: StepEnv): Promise<Record<string, string>> {
  const pr = pullRequestOf(env.GITHUB_EVENT_PATH);
  if (!pr) return { comment: 'none' };
  if (!env.GITHUB_TOKEN) throw new UserError('github-token is empty: the comment needs a token with pull-requests: write.');
  const body = fs.readFileSync(env.MARKDOWN ?? '', 'utf8');
  const target = { api: env.GITHUB_API_URL ?? 'https://api.github.com', repository: env.GITHUB_REPOSITORY ?? '', issue: pr.number, token: env.GITHUB_TOKEN };
  const r = await upsertComment(target, env.MARKER ?? '', body);
  return { comment: r.action, 'comment-id': String(r.id) };
}
