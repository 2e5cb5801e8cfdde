// What the GitHub Action (action.yml) needs from GitHub, kept at this edge: the pull request of the event,
// step outputs, and one comment per marker, created once and updated in place. The API's base URL comes
// from $GITHUB_API_URL, so a test points it at a local server.
import fs from 'node:fs';
import { UserError } from '../errors.ts';

/** The pull request an event is about. */
export interface PullRequest {
  number: number;
  base: string;
  head: string;
}

/** The pull request of the event file ($GITHUB_EVENT_PATH), or null for an event without one (a push). */
export function pullRequestOf(eventFile: string | undefined): PullRequest | null {
  if (!eventFile || !fs.existsSync(eventFile)) return null;
  let event: unknown;
  try {
    event = JSON.parse(fs.readFileSync(eventFile, 'utf8'));
  } catch {
    throw new UserError(`${eventFile}: the event file is not JSON.`);
  }
  const pr = (event as { pull_request?: { number?: unknown; base?: { sha?: unknown }; head?: { sha?: unknown } } } | null)?.pull_request;
  if (!pr) return null;
  const sha = (v: unknown) => (typeof v === 'string' && /^[0-9a-f]{40,64}$/.test(v) ? v : null);
  const base = sha(pr.base?.sha);
  const head = sha(pr.head?.sha);
  if (!Number.isInteger(pr.number) || (pr.number as number) < 1 || !base || !head) throw new UserError(`${eventFile}: the pull request in this event has no number, base sha or head sha.`);
  return { number: pr.number as number, base, head };
}

/** Appends step outputs to $GITHUB_OUTPUT (each value on one line: a line break in one is refused). */
export function setOutputs(file: string | undefined, outputs: Record<string, string>): void {
  const lines = Object.entries(outputs).map(([k, v]) => {
    if (/[\r\n]/.test(v)) throw new UserError(`step output ${k} holds a line break.`);
    return `${k}=${v}\n`;
  });
  if (file) fs.appendFileSync(file, lines.join(''));
}

/** Where a comment goes and how to reach the API. */
export interface CommentTarget {
  /** The API's base URL ($GITHUB_API_URL: https://api.github.com, or a GitHub Enterprise one). */
  api: string;
  /** owner/name ($GITHUB_REPOSITORY). */
  repository: string;
  issue: number;
  token: string;
}

/** Most pages of comments read while looking for the marker (100 comments each). */
const MAX_PAGES = 20;

/**
 * Posts `body` as a comment on the pull request, or updates the comment whose first line is `marker`
 * (the first one, if a race left two): one comment per marker, whatever the number of pushes.
 */
export async function upsertComment(t: CommentTarget, marker: string, body: string): Promise<{ action: 'created' | 'updated'; id: number }> {
  if (!/^[\w.-]+\/[\w.-]+$/.test(t.repository)) throw new UserError(`GITHUB_REPOSITORY '${t.repository}' is not owner/name.`);
  if (body.split('\n')[0] !== marker) throw new UserError(`the comment does not start with its marker ${marker}.`);
  const base = `${t.api.replace(/\/+$/, '')}/repos/${t.repository}/issues`;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const comments = await call(t, 'GET', `${base}/${t.issue}/comments?per_page=100&page=${page}`);
    if (!Array.isArray(comments)) throw new UserError(`${base}/${t.issue}/comments: expected a list of comments.`);
    const mine = comments.find((c: { body?: unknown }) => typeof c?.body === 'string' && c.body.split('\n')[0].trim() === marker) as { id?: unknown } | undefined;
    if (mine && typeof mine.id === 'number') {
      await call(t, 'PATCH', `${base}/comments/${mine.id}`, { body });
      return { action: 'updated', id: mine.id };
    }
    if (comments.length < 100) break;
  }
  const created = (await call(t, 'POST', `${base}/${t.issue}/comments`, { body })) as { id?: unknown };
  return { action: 'created', id: typeof created?.id === 'number' ? created.id : -1 };
}

async function call(t: CommentTarget, method: string, url: string, body?: unknown): Promise<unknown> {
  const headers = { accept: 'application/vnd.github+json', authorization: `Bearer ${t.token}`, 'x-github-api-version': '2022-11-28', 'content-type': 'application/json' };
  let r: Response;
  try {
    r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new UserError(`${method} ${url}: ${(error as Error).message}`);
  }
  const text = await r.text();
  if (!r.ok) {
    const hint = r.status === 403 || r.status === 404 ? ' The token needs `pull-requests: write` (a pull request from a fork gets a read-only token: the verdict is still in the job summary).' : '';
    throw new UserError(`${method} ${url}: HTTP ${r.status} ${text.slice(0, 200)}.${hint}`);
  }
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    throw new UserError(`${method} ${url}: the answer is not JSON.`);
  }
}
