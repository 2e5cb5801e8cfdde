// The action's edge to GitHub, without a network: which comment is the action's own (only one by the
// token's account starting with the marker, whatever others post) and who the token is. The API is a fake
// `Api`; cutting comments to GitHub's limit is pinned down in github-fit.test.ts.
import { describe, expect, it } from 'vitest';
import {
  ACTIONS_BOT,
  type Api,
  type Author,
  COMMENT_LIMIT,
  GitHubError,
  ownComment,
  sameAuthor,
  tokenAuthor,
  upsertComment,
} from '../../src/ci/github.ts';
import { MARKER } from './github-fixtures.ts';

const bot = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };
const mallory = { login: 'mallory', id: 666, type: 'User' };
const alice = { login: 'Alice', id: 1001, type: 'User' };
const comment = (id: number, user: unknown, body = `${MARKER}\nverdict ${id}`) => ({ id, body, user });

describe('ownComment: the comment the action may update', () => {
  it("skips a marked comment by another author posted first, and takes the bot's own later one", () => {
    const page = [comment(1, alice, 'LGTM'), comment(2, mallory), comment(3, bot), comment(4, bot)];
    expect(ownComment(page, MARKER, ACTIONS_BOT)).toBe(3);
  });

  it('finds nothing when only others posted the marker, so a new comment is created', () => {
    expect(ownComment([comment(2, mallory), comment(5, alice)], MARKER, ACTIONS_BOT)).toBeNull();
  });

  it('takes no comment of the bot without the marker on its first line, nor one with the marker further down', () => {
    expect(
      ownComment([comment(3, bot, 'another workflow'), comment(4, bot, `hello\n${MARKER}`)], MARKER, ACTIONS_BOT),
    ).toBeNull();
    expect(ownComment([comment(3, bot, `${MARKER}  \nverdict`)], MARKER, ACTIONS_BOT)).toBe(3);
  });

  it("never takes a user's comment for the bot's: a login like the bot's with type User, or no user at all", () => {
    const lookalike = { login: 'github-actions[bot]', id: 7, type: 'User' };
    expect(
      ownComment(
        [comment(2, lookalike), comment(3, null), comment(4, { login: 'github-actions' }), { id: 5, body: MARKER }],
        MARKER,
        ACTIONS_BOT,
      ),
    ).toBeNull();
  });

  it("with a user's token, takes that user's marked comment, by id when known (a renamed login stays theirs, a new owner of the old login does not pass)", () => {
    const me: Author = { login: 'alice', id: 1001, type: 'User' };
    expect(ownComment([comment(2, mallory), comment(3, bot), comment(4, alice)], MARKER, me)).toBe(4);
    expect(ownComment([comment(4, { ...alice, login: 'alice-renamed' })], MARKER, me)).toBe(4);
    expect(ownComment([comment(4, { login: 'alice', id: 2002, type: 'User' })], MARKER, me)).toBeNull();
  });

  it('ignores entries that are not comments', () => {
    expect(
      ownComment(
        [null, 'x', { id: '3', body: MARKER, user: bot }, { id: 4, body: 5, user: bot }, comment(6, bot)],
        MARKER,
        ACTIONS_BOT,
      ),
    ).toBe(6);
  });
});

describe('sameAuthor', () => {
  it('compares logins without case and always the account type; ids when both sides have one', () => {
    expect(sameAuthor(ACTIONS_BOT, { login: 'GitHub-Actions[bot]', type: 'Bot' })).toBe(true);
    expect(sameAuthor(ACTIONS_BOT, { login: 'github-actions[bot]', type: 'User' })).toBe(false);
    expect(sameAuthor({ login: 'a', id: 1, type: 'User' }, { login: 'b', id: 1, type: 'User' })).toBe(true);
    expect(sameAuthor({ login: 'a', id: 1, type: 'User' }, { login: 'a', id: 2, type: 'User' })).toBe(false);
    expect(sameAuthor(ACTIONS_BOT, null)).toBe(false);
  });
});

/** A fake API: answers from `routes` by "METHOD url", records every request; an Error answer is thrown. */
function fakeApi(routes: Record<string, unknown | ((body: unknown) => unknown)>) {
  const requests: { method: string; url: string; body?: unknown }[] = [];
  const api: Api = async (method, url, body) => {
    requests.push({ method, url, body });
    const key = `${method} ${url}`;
    if (!(key in routes)) throw new GitHubError(`${key}: HTTP 404`, 404, '{"message":"Not Found"}');
    const answer = routes[key];
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer(body) : answer;
  };
  return { api, requests };
}

const API = 'https://api.example';
const integration = new GitHubError(
  'GET /user: HTTP 403',
  403,
  '{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/users/users#get-the-authenticated-user"}',
);

describe('tokenAuthor: who the token acts as', () => {
  it("is the user GET /user answers for a user's token", async () => {
    const { api } = fakeApi({ [`GET ${API}/user`]: { login: 'alice', id: 1001, type: 'User', name: 'Alice' } });
    expect(await tokenAuthor(api, API)).toEqual({ login: 'alice', id: 1001, type: 'User' });
  });

  it('is github-actions[bot] for an installation token, which GET /user refuses as "not accessible by integration"', async () => {
    const { api } = fakeApi({ [`GET ${API}/user`]: integration });
    expect(await tokenAuthor(api, API)).toEqual(ACTIONS_BOT);
  });

  it('is an error for any other refusal (a bad token, a rate limit) and for an answer without a login', async () => {
    const bad = fakeApi({
      [`GET ${API}/user`]: new GitHubError('GET /user: HTTP 401', 401, '{"message":"Bad credentials"}'),
    });
    await expect(tokenAuthor(bad.api, API)).rejects.toThrow(/HTTP 401/);
    const limited = fakeApi({
      [`GET ${API}/user`]: new GitHubError('GET /user: HTTP 403', 403, '{"message":"API rate limit exceeded"}'),
    });
    await expect(tokenAuthor(limited.api, API)).rejects.toThrow(/HTTP 403/);
    const odd = fakeApi({ [`GET ${API}/user`]: { message: 'hi' } });
    await expect(tokenAuthor(odd.api, API)).rejects.toThrow(/names no login and type/);
  });
});

describe('upsertComment', () => {
  const target = { api: `${API}/`, repository: 'o/tool', issue: 7, token: 't' };
  const list = (page: number) => `GET ${API}/repos/o/tool/issues/7/comments?per_page=100&page=${page}`;
  const post = `POST ${API}/repos/o/tool/issues/7/comments`;
  const body = `${MARKER}\nthe verdict`;

  it("creates a comment when the only marked one is an attacker's, and never writes to it", async () => {
    const { api, requests } = fakeApi({
      [`GET ${API}/user`]: integration,
      [list(1)]: [comment(2, mallory)],
      [post]: { id: 9, user: bot },
    });
    expect(await upsertComment(target, MARKER, body, api)).toEqual({ action: 'created', id: 9 });
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${API}/user`, list(1), post]);
    expect(requests[2].body).toEqual({ body });
  });

  it("updates the bot's own comment when an attacker's marked comment comes first, even on a later page", async () => {
    const page1 = [comment(2, mallory), ...Array.from({ length: 99 }, (_, i) => comment(10 + i, alice, 'chatter'))];
    const patch = `PATCH ${API}/repos/o/tool/issues/comments/300`;
    const { api, requests } = fakeApi({
      [`GET ${API}/user`]: integration,
      [list(1)]: page1,
      [list(2)]: [comment(300, bot)],
      [patch]: { id: 300 },
    });
    expect(await upsertComment(target, MARKER, body, api)).toEqual({ action: 'updated', id: 300 });
    expect(requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'PATCH']);
    expect(requests.some((r) => r.url.endsWith('/comments/2'))).toBe(false);
  });

  it("with a user's token, updates that user's marked comment and not the bot's", async () => {
    const patch = `PATCH ${API}/repos/o/tool/issues/comments/4`;
    const { api } = fakeApi({
      [`GET ${API}/user`]: { login: 'Alice', id: 1001, type: 'User' },
      [list(1)]: [comment(3, bot), comment(4, alice)],
      [patch]: { id: 4 },
    });
    expect(await upsertComment(target, MARKER, body, api)).toEqual({ action: 'updated', id: 4 });
  });

  it('refuses, before any request, a body over the limit or one that does not start with the marker', async () => {
    const { api, requests } = fakeApi({});
    await expect(upsertComment(target, MARKER, `${MARKER}\n${'x'.repeat(COMMENT_LIMIT)}`, api)).rejects.toThrow(
      /over GitHub's limit of 65536/,
    );
    await expect(upsertComment(target, MARKER, `hello\n${MARKER}`, api)).rejects.toThrow(
      /does not start with its marker/,
    );
    expect(requests).toEqual([]);
  });
});
