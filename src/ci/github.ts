// What the GitHub Action (action.yml) needs from GitHub, kept at this edge: the pull request of the event,
// step outputs, and one comment per marker, created once and updated in place: only ever a comment of the
// token's own account, and never over GitHub's size limit. The API's base URL comes from $GITHUB_API_URL,
// so a test points it at a local server; the requests go through an injectable `Api`.
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
  const pr = (
    event as { pull_request?: { number?: unknown; base?: { sha?: unknown }; head?: { sha?: unknown } } } | null
  )?.pull_request;
  if (!pr) return null;
  const sha = (v: unknown) => (typeof v === 'string' && /^[0-9a-f]{40,64}$/.test(v) ? v : null);
  const base = sha(pr.base?.sha);
  const head = sha(pr.head?.sha);
  if (!Number.isInteger(pr.number) || (pr.number as number) < 1 || !base || !head)
    throw new UserError(`${eventFile}: the pull request in this event has no number, base sha or head sha.`);
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

/** One request to the REST API, answering its parsed JSON or throwing a GitHubError. Injectable: a test passes a fake. */
export type Api = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => Promise<unknown>;

/** The API answered with an error status; `status` lets a caller tell "not for this kind of token" from a failure. */
export class GitHubError extends UserError {
  constructor(
    message: string,
    readonly status: number,
    readonly answer: string,
  ) {
    super(message);
  }
}

/** Who wrote a comment, as the API's `user` object gives it. */
export interface Author {
  login: string;
  /** The account's id, stable across renames; known for the token's own account (GET /user). */
  id?: number;
  /** `User`, `Bot`, `Organization`. */
  type: string;
}

/**
 * The author of the default GITHUB_TOKEN's comments. No account can take this login (`[` and `]` are not
 * allowed in a user's), so a comment by it was posted with a token of this repository's workflows.
 */
export const ACTIONS_BOT: Author = { login: 'github-actions[bot]', type: 'Bot' };

/** GitHub refuses a comment body over this many characters ("body is too long (maximum is 65536 characters)"). */
export const COMMENT_LIMIT = 65_536;

/**
 * A comment's length as GitHub counts it, never less: GitHub counts characters (code points); a JavaScript
 * string's length counts UTF-16 units, which is the same for every character but those outside the BMP
 * (an emoji), counted 2 here and 1 there.
 */
export function commentLength(body: string): number {
  return body.length;
}

/**
 * `markdown` cut to fit GitHub's comment limit and still well-formed: cut at a line break (inside a line
 * only when one line is longer than half of the room, and then never inside a character, an entity, an
 * escape or a tag), an open code fence and open <details> blocks closed, then a sentence saying it was cut
 * and `where` the rest is. What is measured is the final text, after whatever escaping made it longer.
 */
export function fitComment(markdown: string, where: string, limit = COMMENT_LIMIT): string {
  if (commentLength(markdown) <= limit) return markdown;
  const note = `\n\n**This comment was cut here** to fit GitHub's limit of ${limit.toLocaleString('en')} characters: ${where}\n`;
  let room = limit - commentLength(note);
  for (;;) {
    if (room <= 0) throw new Error(`fitComment: the note alone is over ${limit} characters`);
    const kept = cutAt(markdown, room);
    const out = kept + closers(kept) + note;
    if (commentLength(out) <= limit) return out;
    room -= commentLength(out) - limit;
  }
}

/** The start of `text` of at most `room` units: up to a line break, else inside the line, dropping what a cut would leave half-written. */
function cutAt(text: string, room: number): string {
  const line = text.lastIndexOf('\n', room);
  if (line >= room / 2) return text.slice(0, line);
  const end = isHighSurrogate(text.charCodeAt(room - 1)) ? room - 1 : room;
  // A half entity (`&am`) or a tag left open (`<details`) is dropped: benchgrid's markdown writes `&` and
  // `<` only to begin these. So is a backslash whose character was cut off (an odd one at the end).
  const kept = text.slice(0, end).replace(/(?:&#?\w*|<[^>\n]*)$/, '');
  return /\\*$/.exec(kept)![0].length % 2 === 1 ? kept.slice(0, -1) : kept;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

/** What closes the blocks `text` leaves open: its code fence, then its <details> blocks. */
function closers(text: string): string {
  const { fence, details } = openBlocks(text);
  return (fence === null ? '' : `\n${fence}`) + '\n\n</details>'.repeat(details);
}

/** The code fence (CommonMark: three or more backticks or tildes) and the number of <details> blocks open at the end of `text`. */
export function openBlocks(text: string): { fence: string | null; details: number } {
  let fence: string | null = null;
  let details = 0;
  for (const line of text.split('\n')) {
    if (fence !== null) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    // A backtick fence's info string holds no backtick (else the line is a code span).
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = open[1];
      continue;
    }
    details += (line.match(/<details[\s>]/gi) ?? []).length - (line.match(/<\/details\s*>/gi) ?? []).length;
  }
  return { fence, details: Math.max(0, details) };
}

/** Most pages of comments read while looking for the marker (100 comments each). */
const MAX_PAGES = 20;

/** The account behind the token, read from the API's `user` object of a comment or of GET /user; null when malformed. */
export function authorOf(user: unknown): Author | null {
  const u = user as { login?: unknown; id?: unknown; type?: unknown } | null | undefined;
  if (typeof u?.login !== 'string' || typeof u.type !== 'string') return null;
  return { login: u.login, type: u.type, ...(typeof u.id === 'number' ? { id: u.id } : {}) };
}

/**
 * Whether `author` is `me`: by id when both have one (a login can be renamed and then taken by someone
 * else), else by login (GitHub's are case-insensitive) and account type, so a user can never pass for a bot.
 */
export function sameAuthor(me: Author, author: Author | null): boolean {
  if (!author) return false;
  if (me.id !== undefined && author.id !== undefined) return me.id === author.id && me.type === author.type;
  return me.login.toLowerCase() === author.login.toLowerCase() && me.type === author.type;
}

/**
 * The id of the first comment of a page that is the action's own: its first line is the marker and its
 * author is the token's account. A comment starting with the marker by anyone else (any commenter can
 * post one, and edit it later) is never chosen, so the action never writes its verdict into it.
 */
export function ownComment(comments: unknown[], marker: string, me: Author): number | null {
  for (const c of comments as { id?: unknown; body?: unknown; user?: unknown }[]) {
    if (typeof c?.id !== 'number' || typeof c.body !== 'string') continue;
    if (c.body.split('\n')[0].trim() === marker && sameAuthor(me, authorOf(c.user))) return c.id;
  }
  return null;
}

/**
 * The account the token acts as. A user's token (a personal access token) reads itself with GET /user; an
 * installation token, such as the default GITHUB_TOKEN, may not ("Resource not accessible by integration"),
 * and its comments are github-actions[bot]'s. A GitHub App's own installation token is refused the same way:
 * its comments are by `APP[bot]`, never found as the action's, so it posts a new comment on each run.
 */
export async function tokenAuthor(api: Api, apiBase: string): Promise<Author> {
  let answer: unknown;
  try {
    answer = await api('GET', `${apiBase}/user`);
  } catch (error) {
    if (error instanceof GitHubError && error.status === 403 && /not accessible by integration/i.test(error.answer))
      return ACTIONS_BOT;
    throw error;
  }
  const me = authorOf(answer);
  if (!me) throw new UserError(`GET ${apiBase}/user: the answer names no login and type.`);
  return me;
}

/**
 * Posts `body` as a comment on the pull request, or updates the action's own comment whose first line is
 * `marker` (the first one, if a race left two): one comment per marker, whatever the number of pushes.
 * A body over GitHub's limit is refused here, before any request: the caller fits it (fitComment).
 */
export async function upsertComment(
  t: CommentTarget,
  marker: string,
  body: string,
  api: Api = restApi(t.token),
): Promise<{ action: 'created' | 'updated'; id: number }> {
  if (!/^[\w.-]+\/[\w.-]+$/.test(t.repository))
    throw new UserError(`GITHUB_REPOSITORY '${t.repository}' is not owner/name.`);
  if (body.split('\n')[0] !== marker) throw new UserError(`the comment does not start with its marker ${marker}.`);
  if (commentLength(body) > COMMENT_LIMIT)
    throw new UserError(`the comment has ${commentLength(body)} characters, over GitHub's limit of ${COMMENT_LIMIT}.`);
  const root = t.api.replace(/\/+$/, '');
  const base = `${root}/repos/${t.repository}/issues`;
  const me = await tokenAuthor(api, root);
  for (let page = 1; page <= MAX_PAGES; page++) {
    const comments = await api('GET', `${base}/${t.issue}/comments?per_page=100&page=${page}`);
    if (!Array.isArray(comments)) throw new UserError(`${base}/${t.issue}/comments: expected a list of comments.`);
    const mine = ownComment(comments, marker, me);
    if (mine !== null) {
      await api('PATCH', `${base}/comments/${mine}`, { body });
      return { action: 'updated', id: mine };
    }
    if (comments.length < 100) break;
  }
  const created = (await api('POST', `${base}/${t.issue}/comments`, { body })) as { id?: unknown };
  return { action: 'created', id: typeof created?.id === 'number' ? created.id : -1 };
}

/** The REST API over fetch, with the token; a refusal explains the permission a comment needs. */
export function restApi(token: string): Api {
  return async (method, url, body) => {
    const headers = {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${token}`,
      'x-github-api-version': '2022-11-28',
      'content-type': 'application/json',
    };
    let r: Response;
    try {
      r = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new UserError(`${method} ${url}: ${(error as Error).message}`);
    }
    const text = await r.text();
    if (!r.ok) {
      const hint =
        r.status === 403 || r.status === 404
          ? ' The token needs `pull-requests: write` (a pull request from a fork gets a read-only token: the verdict is still in the job summary).'
          : '';
      throw new GitHubError(`${method} ${url}: HTTP ${r.status} ${text.slice(0, 200)}.${hint}`, r.status, text);
    }
    try {
      return text === '' ? null : JSON.parse(text);
    } catch {
      throw new UserError(`${method} ${url}: the answer is not JSON.`);
    }
  };
}
