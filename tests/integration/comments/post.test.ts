import { textKey } from '../../../src/lib/i18n/text-key.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublishingClient } from '../../../src/lib/publishing/client.ts';
import { memoryCommentLimiter } from '../../fixtures/comment-limiter.ts';
import type { ConsumeLimit } from '../../../src/lib/comments/limit.ts';
import {
  MODERATION_MESSAGE,
  PUBLISHED_MESSAGE,
  FAILURE_STATUS,
  postComment,
} from '../../../src/lib/comments/post.ts';
import type { CommentOutcome, PostCommentRequest } from '../../../src/lib/comments/post.ts';
import { loadCommentsView } from '../../../src/lib/comments/section.ts';
import { RETRY_AFTER_SECONDS } from '../../../src/lib/delivery/policy.ts';
import { postOnce, rememberedName } from '../../../src/lib/comments/once.ts';
import { findComment } from '../../../src/lib/comments/thread.ts';
import { ValidationError } from '../../../src/lib/upstream/errors.ts';
import type { Upstream } from '../../../src/lib/upstream/runtime.ts';
import { PASSWORD, ctl, freshUpstream, startTestMock } from '../harness.ts';
import { freePort } from '../../fixtures/net.ts';
import type { Mock } from '../harness.ts';
import { publishingTestClient } from '../operations.ts';
import type { PublishingTestClient } from '../operations.ts';
import { english } from '../../fixtures/english.ts';

// The action's logic against the in-process contract mock (its own ports, its own faults):
// the signed-in path uses a real token from POST /auth/login, as the session would hold it.

const SLUG = 'welcome-to-our-new-website';
let mock: Mock;
let up: Upstream;

beforeAll(async () => {
  mock = await startTestMock({ publicPerMinute: 0, tokenPerMinute: 0 });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(async () => {
  await ctl.reset(mock);
  await ctl.limits(mock, { publicPerMinute: 0, tokenPerMinute: 0 });
  up = freshUpstream({ http: { timeoutMs: 2000 } }).up;
});

function client(token?: string): PublishingTestClient {
  return publishingTestClient({
    tenantId: 'daily-planet',
    baseUrl: mock.publishingUrl,
    upstream: up,
    token,
  });
}

const unlimited: ConsumeLimit = () => Promise.resolve({ ok: true });

function request(change: Partial<PostCommentRequest> = {}): PostCommentRequest {
  return {
    postSlug: SLUG,
    values: {
      content: 'A guest thought',
      name: 'Gina Guest',
      email: 'gina@example.com',
      parentId: '',
      key: '',
    },
    token: null,
    limitKey: 'daily-planet|203.0.113.5',
    ...change,
  };
}

const post = (
  req: PostCommentRequest,
  consume: ConsumeLimit = unlimited,
  onUnexpected?: (e: unknown) => void,
) => postComment(req, { client, consume, ...(onUnexpected ? { onUnexpected } : {}) });

async function login(role: 'reader' | 'editor'): Promise<string> {
  return (await client().login(`${role}@masthead.test`, PASSWORD)).token;
}

function failure(outcome: CommentOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('postComment: guests', () => {
  it('leaves a guest comment pending (not listed), then lists it once an editor approves it', async () => {
    const content = `Guest ${crypto.randomUUID()}`;
    const outcome = await post(request({ values: { ...request().values, content } }));
    expect(outcome).toMatchObject({ ok: true, status: 'pending', message: MODERATION_MESSAGE });
    const before = await loadCommentsView(client(), SLUG, { reply: null, page: null, outcome });
    expect(JSON.stringify(before.thread)).not.toContain(content);
    expect(before.form.success).toMatchObject({ status: 'pending', listed: false });
    expect(before.form.values.content).toBe('');

    if (!outcome.ok) return;
    await client(await login('editor')).approveComment(outcome.id);
    const after = await loadCommentsView(client(), SLUG, {
      reply: null,
      page: null,
      outcome: undefined,
    });
    // The data cache still holds the list read above until its TTL; a fresh read shows the approval.
    expect(JSON.stringify(after.thread)).not.toContain(content);
    const fresh = await client().listComments(SLUG, { perPage: 50 }, { fresh: true });
    expect(JSON.stringify(fresh.items)).toContain(content);
  });

  it('keeps the text and maps an API 422 that the local rules did not foresee', async () => {
    const refusing = () =>
      ({
        createComment: () =>
          Promise.reject(
            new ValidationError(
              'x',
              { service: 'publishing', operation: 'comments.create', status: 422 },
              {
                author_email: ['The author email field must be a valid email address.'],
                captcha: ['Please solve the captcha.'],
              },
            ),
          ),
      }) as unknown as PublishingClient;
    const outcome = failure(await postComment(request(), { client: refusing, consume: unlimited }));
    expect(outcome).toMatchObject({
      kind: 'invalid',
      message: 'Please solve the captcha.',
      fields: { email: [textKey('comments.error.emailInvalid')] },
      values: request().values,
    });
    expect(FAILURE_STATUS[outcome.kind]).toBe(422);
  });

  it('refuses locally (no upstream call, no rate-limit point) and keeps every field', async () => {
    let spent = 0;
    const counting: ConsumeLimit = () => {
      spent += 1;
      return Promise.resolve({ ok: true });
    };
    const values = { content: 'x'.repeat(2001), name: 'Gina', email: '', parentId: '1', key: '' };
    const outcome = failure(await post(request({ values }), counting));
    expect(outcome.values).toEqual(values);
    expect(Object.keys(outcome.fields).sort()).toEqual(['content', 'email']);
    expect(spent).toBe(0);
  });

  it('posts a reply under an approved parent; a refused parent drops the reply target', async () => {
    const reply = await post(request({ values: { ...request().values, parentId: '1' } }));
    expect(reply).toMatchObject({ ok: true, status: 'pending' });
    const pendingParent = failure(
      await post(request({ values: { ...request().values, parentId: '999999' } })),
    );
    expect(pendingParent.kind).toBe('invalid');
    expect(english(pendingParent.message)).toMatch(/no longer available/);
    expect(pendingParent.values).toMatchObject({ parentId: '', content: 'A guest thought' });
  });
});

describe('postComment: signed in', () => {
  it('publishes at once with the token (name and e-mail ignored) and the fresh list shows it', async () => {
    const token = await login('reader');
    // Warm the data cache first, as a visitor's earlier page view would.
    await loadCommentsView(client(), SLUG, { reply: null, page: null, outcome: undefined });
    const content = `Signed in ${crypto.randomUUID()}`;
    const outcome = await post(
      request({ token, values: { content, name: '', email: '', parentId: '4', key: '' } }),
    );
    expect(outcome).toMatchObject({ ok: true, status: 'approved', message: PUBLISHED_MESSAGE });
    if (!outcome.ok) return;

    const view = await loadCommentsView(client(), SLUG, { reply: null, page: null, outcome });
    const mine = findComment(view.thread, outcome.id);
    expect(mine?.content).toBe(content);
    expect(mine?.authorName).toBe('Riley Reader');
    // …as a reply to comment 4.
    expect(findComment(findComment(view.thread, '4')?.replies ?? [], outcome.id)).not.toBeNull();
    expect(view.form.success).toMatchObject({ status: 'approved', listed: true });
  });

  it('says the sign-in expired when the token is no longer valid', async () => {
    const token = await login('reader');
    await client(token).logout();
    const outcome = failure(await post(request({ token })));
    expect(outcome.kind).toBe('signed-out');
    expect(outcome.values.content).toBe('A guest thought');
  });

  it('after a logout in another tab, the signed-in form (no name, no e-mail) is told so, not posted', async () => {
    const content = `Signed out since ${crypto.randomUUID()}`;
    const signedInForm = { ...request().values, content, name: '', email: '' };
    const clients: (string | undefined)[] = [];
    const counted = (token?: string) => (clients.push(token), client(token));
    const outcome = failure(
      await postComment(request({ values: signedInForm, signedOutSince: true }), {
        client: counted,
        consume: unlimited,
      }),
    );
    expect(outcome).toMatchObject({ kind: 'signed-out', values: { content } });
    expect(clients).toHaveLength(0);
    // Name and e-mail typed: a guest's comment like any other.
    const guest = await post(
      request({ values: { ...request().values, content }, signedOutSince: true }),
    );
    expect(guest).toMatchObject({ ok: true, status: 'pending' });
  });
});

describe('postComment: limits and outages', () => {
  it('stops a flood from one address before the upstream', async () => {
    const consume = memoryCommentLimiter({ points: 1, duration: 600 });
    expect((await post(request(), consume)).ok).toBe(true);
    const refused = failure(await post(request(), consume));
    expect(refused.kind).toBe('busy');
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(english(refused.message)).toMatch(/wait 10 minutes/);
    expect(refused.values.content).toBe('A guest thought');
    expect(FAILURE_STATUS[refused.kind]).toBe(429);
  });

  it('a send the API refused (422) costs no comment: the reader fixes it and posts', async () => {
    const consume = memoryCommentLimiter({ points: 1, duration: 600 });
    const refused = failure(
      await post(request({ values: { ...request().values, parentId: '999999' } }), consume),
    );
    expect(refused.kind).toBe('invalid');
    expect((await post(request(), consume)).ok).toBe(true);
    // The accepted one counted.
    expect(failure(await post(request(), consume)).kind).toBe('busy');
  });

  it.each([
    ['the API down (never reached)', { down: true }],
    ['429 from the API', { force429: true, retryAfterSeconds: 7 }],
  ] as const)('%s: costs no comment', async (_label, faults) => {
    const consume = memoryCommentLimiter({ points: 1, duration: 600 });
    await ctl.faults(mock, { service: 'publishing', ...faults });
    try {
      expect((await post(request(), consume)).ok).toBe(false);
    } finally {
      await ctl.clearFaults(mock);
    }
    // A new upstream state: the one above waits out the API's Retry-After before sending again.
    up = freshUpstream({ http: { timeoutMs: 2000 } }).up;
    expect((await post(request(), consume)).ok).toBe(true);
  });

  it("after the API's 429 with Retry-After 7, the next send is told those seconds, not a minute", async () => {
    await ctl.faults(mock, { service: 'publishing', force429: true, retryAfterSeconds: 7 });
    try {
      expect(english(failure(await post(request())).message)).toMatch(/7 seconds/);
    } finally {
      await ctl.clearFaults(mock);
    }
    // Refused before it is sent (the API asked for 7 s), with what is left of them.
    const next = failure(await post(request()));
    expect(next.kind).toBe('busy');
    expect(english(next.message)).toMatch(/\b[1-7] seconds/);
  });

  it('a send the API may have saved (500 after storing) counts against the limit', async () => {
    const consume = memoryCommentLimiter({ points: 1, duration: 600 });
    await ctl.faults(mock, { service: 'publishing', savedThen500: true });
    try {
      expect(failure(await post(request(), consume)).kind).toBe('unconfirmed');
    } finally {
      await ctl.clearFaults(mock);
    }
    expect(failure(await post(request(), consume)).kind).toBe('busy');
  });

  it.each([
    ['429 from the API', { force429: true, retryAfterSeconds: 7 }, 'busy', /7 seconds/],
    ['500 from the API', { errorRate: 1 }, 'unconfirmed', /could not confirm/],
    ['the API down', { down: true }, 'unavailable', /unavailable.*not posted/],
    ['garbage from the API', { malformed: true }, 'unconfirmed', /could not confirm/],
  ] as const)('%s: a clear message and the text kept', async (_label, faults, kind, message) => {
    await ctl.faults(mock, { service: 'publishing', ...faults });
    try {
      const outcome = failure(await post(request()));
      expect(outcome.kind).toBe(kind);
      expect(english(outcome.message)).toMatch(message);
      expect(outcome.values).toEqual(request().values);
    } finally {
      await ctl.clearFaults(mock);
    }
  });

  it('never says "not posted" when the API may have stored the comment before failing', async () => {
    const token = await login('reader');
    const content = `Stored then 500 ${crypto.randomUUID()}`;
    await ctl.faults(mock, { service: 'publishing', savedThen500: true });
    let outcome;
    try {
      outcome = failure(
        await post(request({ token, values: { ...request().values, content, name: '' } })),
      );
    } finally {
      await ctl.clearFaults(mock);
    }
    // It was posted: "not posted, try again" would have the reader send it a second time.
    const fresh = await client().listComments(SLUG, { perPage: 50 }, { fresh: true });
    expect(JSON.stringify(fresh.items)).toContain(content);
    expect(outcome.kind).toBe('unconfirmed');
    expect(FAILURE_STATUS[outcome.kind]).toBe(503);
    expect(english(outcome.message)).not.toMatch(/not posted|try again/i);
    expect(english(outcome.message)).toMatch(/could not confirm/);
    expect(outcome.values.content).toBe(content);
  });

  it('hides an unexpected failure behind a generic message and reports it', async () => {
    const seen: unknown[] = [];
    const broken = () =>
      ({
        createComment: () => Promise.reject(new TypeError('boom at line 42')),
      }) as unknown as PublishingClient;
    const outcome = failure(
      await postComment(request(), {
        client: broken,
        consume: unlimited,
        onUnexpected: (e) => seen.push(e),
      }),
    );
    expect(outcome.kind).toBe('error');
    expect(outcome.message).not.toMatch(/boom|line 42/);
    expect(seen).toHaveLength(1);
  });

  it('answers a stale link past the last comments page with the last page, not "no comments yet"', async () => {
    const first = await loadCommentsView(client(), SLUG, {
      reply: null,
      page: null,
      outcome: undefined,
    });
    expect(first.thread.length).toBeGreaterThan(0);
    expect(first.page.last).toBe(1);
    const stale = await loadCommentsView(client(), SLUG, {
      reply: '4',
      page: '3',
      outcome: undefined,
    });
    expect(stale.page).toEqual({ current: 1, last: 1, counted: true });
    expect(stale.thread.map((node) => node.id)).toEqual(first.thread.map((node) => node.id));
    expect(stale.form.replyTo?.id).toBe('4');
  });

  it('shows the form even when the list cannot be read', async () => {
    await ctl.faults(mock, { service: 'publishing', down: true });
    try {
      const warned: unknown[] = [];
      const view = await loadCommentsView(
        client(),
        'some-uncached-post',
        { reply: null, page: null, outcome: undefined },
        (e) => warned.push(e),
      );
      expect(view.unavailable).toBe(true);
      expect(warned).toHaveLength(1);
    } finally {
      await ctl.clearFaults(mock);
    }
  });
});

describe('postComment: the idempotency key', () => {
  const writes = async () =>
    ((await ctl.stats(mock)) as { publishing: { routes: Record<string, number> } }).publishing
      .routes['POST /posts/{slug}/comments'] ?? 0;
  const named = (content: string, key = 'k'.repeat(32)) =>
    rememberedName({
      tenant: 'daily-planet',
      post: SLUG,
      key,
      author: 'guest:Gina Guest|gina@example.com',
      content,
      parentId: '',
    });

  it('posts one comment for a key sent twice, one after the other or both at once', async () => {
    const once = postOnce(undefined);
    const content = `Once ${crypto.randomUUID()}`;
    const req = request({ values: { ...request().values, content }, remember: named(content) });
    const before = await writes();
    const first = await postComment(req, { client, consume: unlimited, once });
    const again = await postComment(req, { client, consume: unlimited, once });
    expect(first).toMatchObject({ ok: true, status: 'pending', content });
    expect(again).toEqual(first);
    expect(await writes()).toBe(before + 1);

    // A double click: two posts of a new key at the same moment.
    const racing = `Racing ${crypto.randomUUID()}`;
    const both = request({
      values: { ...request().values, content: racing },
      remember: named(racing),
    });
    const [a, b] = await Promise.all([
      postComment(both, { client, consume: unlimited, once }),
      postComment(both, { client, consume: unlimited, once }),
    ]);
    expect(a).toEqual(b);
    expect(await writes()).toBe(before + 2);
  });

  it('a double click while the API saves and then fails stores the comment once', async () => {
    const once = postOnce(undefined);
    const content = `Saved then failed ${crypto.randomUUID()}`;
    const req = request({ values: { ...request().values, content }, remember: named(content) });
    const before = await writes();
    await ctl.faults(mock, { service: 'publishing', savedThen500: true });
    let outcomes: CommentOutcome[];
    try {
      outcomes = await Promise.all([
        postComment(req, { client, consume: unlimited, once }),
        postComment(req, { client, consume: unlimited, once }),
      ]);
    } finally {
      await ctl.clearFaults(mock);
    }
    // The first may have been stored: the second click is told the same, it does not post again.
    expect(await writes()).toBe(before + 1);
    for (const outcome of outcomes)
      expect(failure(outcome).message).toBe(textKey('comments.error.unconfirmed'));
  });

  it('posts again for another text under the same key (a cached page shares its key), or a refused one', async () => {
    const once = postOnce(undefined);
    const before = await writes();
    for (const content of [`One ${crypto.randomUUID()}`, `Two ${crypto.randomUUID()}`]) {
      const req = request({ values: { ...request().values, content }, remember: named(content) });
      expect(await postComment(req, { client, consume: unlimited, once })).toMatchObject({
        ok: true,
      });
    }
    expect(await writes()).toBe(before + 2);

    // Refused (rate limit): nothing remembered, so the same key may be sent again and post.
    const content = `Later ${crypto.randomUUID()}`;
    const req = request({ values: { ...request().values, content }, remember: named(content) });
    const busy: ConsumeLimit = () => Promise.resolve({ ok: false, retryAfterSeconds: 30 });
    expect(await postComment(req, { client, consume: busy, once })).toMatchObject({ ok: false });
    expect(await postComment(req, { client, consume: unlimited, once })).toMatchObject({
      ok: true,
    });
    expect(await writes()).toBe(before + 3);
  });
  it('with Redis configured and away, refuses the post with "try again shortly" and sends nothing', async () => {
    // REDIS_URL names a port where nothing listens: the guard of the key cannot be read.
    const away = `redis://127.0.0.1:${await freePort()}`;
    const once = postOnce(away);
    const content = `Guarded ${crypto.randomUUID()}`;
    const req = request({ values: { ...request().values, content }, remember: named(content) });
    const before = await writes();
    const outcome = failure(await postComment(req, { client, consume: unlimited, once }));
    expect(outcome.kind).toBe('unavailable');
    expect(FAILURE_STATUS[outcome.kind]).toBe(503);
    expect(outcome.message).toBe(textKey('comments.error.unavailable'));
    // The site's one wait after an outage, as a booking refused for the same reason says it.
    expect(outcome.retryAfterSeconds).toBe(RETRY_AFTER_SECONDS);
    // What was typed comes back, to be put into the form again.
    expect(outcome.values.content).toBe(content);
    expect(await writes()).toBe(before);
  });
});
