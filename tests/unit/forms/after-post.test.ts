import { describe, expect, it, vi } from 'vitest';
import {
  SENT_PARAM,
  SIGN_IN_FIELD,
  answerForm,
  keptFormValues,
  keptValues,
  landingAddress,
  readKept,
} from '../../../src/lib/forms/after-post.ts';
import type {
  ActionsOfRequest,
  FormRequest,
  KeptResult,
} from '../../../src/lib/forms/after-post.ts';

/**
 * A session as Astro's behaves for this rule: values by key, read back as stored, gone after their
 * `ttl` on the session's `clock` (milliseconds).
 */
function memorySession(clock = { now: 0 }) {
  const values = new Map<string, unknown>();
  const until = new Map<string, number>();
  const expire = (key: string) => {
    if ((until.get(key) ?? Infinity) <= clock.now) values.delete(key);
  };
  const session = {
    values,
    destroyed: false,
    get: (key: string) => (expire(key), Promise.resolve(values.get(key))),
    has: (key: string) => (expire(key), Promise.resolve(values.has(key))),
    set: (key: string, value: KeptResult, options?: { ttl?: number }) => {
      values.set(key, structuredClone(value));
      if (options?.ttl) until.set(key, clock.now + options.ttl * 1000);
      else until.delete(key);
    },
    delete: (key: string) => void values.delete(key),
    keys: () => Promise.resolve(values.keys()),
    destroy: () => void (session.destroyed = true),
  };
  return session;
}

/** Locals of a tenant reached by path prefix (`/daily-planet/…`) or by host (`prefix` ''). */
function localsFor(pathname: string, prefix = ''): App.Locals {
  return {
    tenantMatch: { pathname },
    href: (path: string) => `${prefix}${path}`,
  } as unknown as App.Locals;
}

function formPost(path: string, fields: Record<string, string>): Request {
  return new Request(`https://news.example${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

interface Run {
  session: ReturnType<typeof memorySession>;
  locals: App.Locals;
  /** Whether the session's store answers (Redis away: false). */
  canKeep?: () => Promise<boolean>;
}

/** One request through the rule: the action (if any) answers `result`. */
async function through(
  request: Request,
  run: Run,
  actionName: string | undefined,
  result: unknown = { data: { ok: true } },
) {
  const handler = vi.fn(() => Promise.resolve(result));
  const setActionResult = vi.fn();
  const actions: ActionsOfRequest = {
    action:
      actionName && request.method === 'POST'
        ? { calledFrom: 'form', name: actionName, handler }
        : undefined,
    setActionResult,
    serializeActionResult: (value: never) => ({ type: 'data', body: JSON.stringify(value) }),
  };
  const next = vi.fn(() => Promise.resolve(new Response('the page', { status: 200 })));
  const context: FormRequest = {
    request,
    url: new URL(request.url),
    locals: run.locals,
    session: run.session,
    canKeep: run.canKeep,
  };
  const response = await answerForm(context, actions, next);
  return { response, handler, setActionResult, next };
}

describe('answerForm: POST → 303 → GET', () => {
  it('runs the action once and answers 303 to the page with ?posted=, keeping result and typing', async () => {
    const run = { session: memorySession(), locals: localsFor('/posts/harbour-news') };
    const posted = await through(
      formPost('/posts/harbour-news?reply=4&_action=postComment', {
        post: 'harbour-news',
        content: 'Kept text',
        password: 'never kept',
        _action: 'x',
      }),
      run,
      'postComment',
    );
    expect(posted.handler).toHaveBeenCalledTimes(1);
    expect(posted.next).not.toHaveBeenCalled();
    expect(posted.response.status).toBe(303);
    expect(posted.response.headers.get('cache-control')).toBe('no-store');
    const location = posted.response.headers.get('location') ?? '';
    expect(location).toMatch(/^\/posts\/harbour-news\?reply=4&posted=[\w-]{16}$/);
    const [stored] = [...run.session.values.values()] as KeptResult[];
    expect(stored?.values).toEqual({ post: 'harbour-news', content: 'Kept text' });

    // The GET it lands on: the page renders with the result, once, privately.
    const landing = await through(new Request(`https://news.example${location}`), run, undefined);
    expect(landing.next).toHaveBeenCalledTimes(1);
    expect(landing.setActionResult).toHaveBeenCalledWith('postComment', stored?.result);
    expect(keptFormValues(run.locals)).toEqual({ post: 'harbour-news', content: 'Kept text' });
    expect(landing.response.headers.get('cache-control')).toBe('private, no-store');
    expect(run.session.values.size).toBe(0);
    // Nothing else in it: the session ends rather than stay stored, empty, for two weeks.
    expect(run.session.destroyed).toBe(true);

    // A reload (or Back to it): no result any more, so the page without the id; nothing runs.
    const reload = await through(new Request(`https://news.example${location}`), run, undefined);
    expect(reload.next).not.toHaveBeenCalled();
    expect(reload.setActionResult).not.toHaveBeenCalled();
    expect(reload.response.status).toBe(303);
    expect(reload.response.headers.get('location')).toBe('/posts/harbour-news?reply=4');
  });

  it('a "Log in" submit button runs nothing, keeps the typing and comes back to its form after the login', async () => {
    const run = { session: memorySession(), locals: localsFor('/posts/harbour-news', '/harbour') };
    const posted = await through(
      formPost('/harbour/posts/harbour-news?_action=postComment', {
        post: 'harbour-news',
        content: 'Typed before logging in',
        parent_id: '4',
        [SIGN_IN_FIELD]: '/posts/harbour-news?reply=4#comment-form',
      }),
      run,
      'postComment',
    );
    expect(posted.handler).not.toHaveBeenCalled();
    expect(posted.response.status).toBe(303);
    const login = new URL(posted.response.headers.get('location') ?? '', 'https://news.example');
    expect(login.pathname).toBe('/harbour/login');
    const next = login.searchParams.get('next') ?? '';
    expect(next).toMatch(/^\/posts\/harbour-news\?reply=4&posted=[\w-]{16}#comment-form$/);

    // Signed in, the login page goes on to `next`: the form's page, its typing back.
    const landing = await through(
      new Request(`https://news.example/harbour${next}`),
      run,
      undefined,
    );
    expect(landing.next).toHaveBeenCalledTimes(1);
    expect(keptFormValues(run.locals)).toEqual({
      post: 'harbour-news',
      content: 'Typed before logging in',
      parent_id: '4',
    });
  });

  it('the text kept by "Log in" waits for a slow login, comes back on a reload, and goes once sent', async () => {
    const clock = { now: 0 };
    const run = { session: memorySession(clock), locals: localsFor('/posts/harbour-news') };
    const typed = { post: 'harbour-news', content: 'A long thought, typed before logging in' };
    const pressed = await through(
      formPost('/posts/harbour-news?_action=postComment', {
        ...typed,
        [SIGN_IN_FIELD]: '/posts/harbour-news#comment-form',
      }),
      run,
      'postComment',
    );
    const login = new URL(pressed.response.headers.get('location') ?? '', 'https://news.example');
    const back = `https://news.example${login.searchParams.get('next') ?? ''}`;

    // An hour on the login page (a forgotten password, a phone put away), then back: the text.
    clock.now += 60 * 60 * 1000;
    const landing = await through(new Request(back), run, undefined);
    expect(landing.next).toHaveBeenCalledTimes(1);
    expect(keptFormValues(run.locals)).toEqual(typed);
    run.locals = localsFor('/posts/harbour-news');
    // A reload of the refilled form: still there.
    const reload = await through(new Request(back), run, undefined);
    expect(reload.next).toHaveBeenCalledTimes(1);
    expect(keptFormValues(run.locals)).toEqual(typed);

    // Posted from that page: Back to the refilled form offers it no more.
    await through(formPost('/posts/harbour-news?_action=postComment', typed), run, 'postComment');
    const backAgain = await through(new Request(back), run, undefined);
    expect(backAgain.next).not.toHaveBeenCalled();
    expect(backAgain.response.headers.get('location')).toBe('/posts/harbour-news');
  });

  it('a "Log in" button naming another site comes back to the form’s own page', async () => {
    const run = { session: memorySession(), locals: localsFor('/posts/harbour-news') };
    const posted = await through(
      formPost('/posts/harbour-news?_action=postComment', {
        content: 'x',
        [SIGN_IN_FIELD]: '//evil.example/',
      }),
      run,
      'postComment',
    );
    const login = new URL(posted.response.headers.get('location') ?? '', 'https://news.example');
    expect(login.searchParams.get('next')).toMatch(/^\/posts\/harbour-news\?posted=[\w-]{16}$/);
  });

  it('with the session’s store away, the page answers the post itself: result and typing kept, privately', async () => {
    const run = {
      session: memorySession(),
      locals: localsFor('/posts/harbour-news'),
      canKeep: () => Promise.resolve(false),
    };
    const refused = { data: { ok: false, kind: 'unavailable' } };
    const posted = await through(
      formPost('/posts/harbour-news?_action=postComment', {
        post: 'harbour-news',
        content: 'Typed while Redis was down',
      }),
      run,
      'postComment',
      refused,
    );
    expect(posted.handler).toHaveBeenCalledTimes(1);
    // No redirect to a result the session could not keep: the page renders it now.
    expect(posted.response.status).toBe(200);
    expect(posted.next).toHaveBeenCalledTimes(1);
    expect(posted.setActionResult).toHaveBeenCalledWith('postComment', {
      type: 'data',
      body: JSON.stringify(refused),
    });
    expect(keptFormValues(run.locals)).toEqual({
      post: 'harbour-news',
      content: 'Typed while Redis was down',
    });
    expect(posted.response.headers.get('cache-control')).toBe('private, no-store');
    expect(run.session.values.size).toBe(0);
  });

  it('keeps the tenant’s path prefix and answers a failure the same way', async () => {
    const run = { session: memorySession(), locals: localsFor('/login', '/daily-planet') };
    const failed = { error: { type: 'AstroActionError', code: 'UNAUTHORIZED' } };
    const posted = await through(
      formPost('/daily-planet/login?_action=login', { email: 'a@b.example', password: 'x' }),
      run,
      'login',
      failed,
    );
    expect(posted.response.status).toBe(303);
    expect(posted.response.headers.get('location')).toMatch(
      /^\/daily-planet\/login\?posted=[\w-]{16}$/,
    );
  });

  it('leaves other actions (the booking steps) and plain requests to the page', async () => {
    const run = { session: memorySession(), locals: localsFor('/stay') };
    const booking = await through(
      formPost('/stay?_action=bookStay', { intent: 'review' }),
      run,
      'bookStay',
    );
    expect(booking.handler).not.toHaveBeenCalled();
    expect(booking.next).toHaveBeenCalledTimes(1);
    const plain = await through(new Request('https://news.example/stay'), run, undefined);
    expect(plain.next).toHaveBeenCalledTimes(1);
    expect(run.session.values.size).toBe(0);
  });

  it.each(['nonsense', '', 'a'.repeat(40), '../../etc/passwd'])(
    'answers a made-up ?posted=%j with the page without it, never rendering',
    async (id) => {
      const run = { session: memorySession(), locals: localsFor('/posts/x') };
      const request = new Request(`https://news.example/posts/x?${SENT_PARAM}=${id}&reply=2`);
      const answer = await through(request, run, undefined);
      expect(answer.next).not.toHaveBeenCalled();
      expect(answer.response.status).toBe(303);
      expect(answer.response.headers.get('location')).toBe('/posts/x?reply=2');
    },
  );
});

describe('landingAddress', () => {
  it('never begins with two slashes (another host to a browser)', () => {
    for (const pathname of ['//evil.example/x', '/\\evil.example', '///x']) {
      const address = landingAddress(pathname, new URLSearchParams(), null, (p) => p);
      expect(address.startsWith('//')).toBe(false);
      expect(new URL(address, 'https://news.example').host).toBe('news.example');
    }
  });

  it('drops the action and an old id, and leaves `tenant` to the tenant’s href', () => {
    const search = new URLSearchParams('tenant=x&_action=login&posted=old&next=%2Fplans');
    expect(landingAddress('/login', search, null, (p) => p)).toBe('/login?next=%2Fplans');
  });
});

describe('keptValues and readKept', () => {
  it('keeps text fields only, never a password, bounded', () => {
    const form = new FormData();
    form.set('email', 'a@b.example');
    form.set('new_password', 'secret');
    form.set('Password', 'secret');
    form.set('big', 'x'.repeat(10_000));
    form.set('file', new Blob(['x']));
    const kept = keptValues(form);
    expect(Object.keys(kept).sort()).toEqual(['big', 'email']);
    expect(kept['big']).toHaveLength(4000);
  });

  it('reads back only what the rule wrote, for its actions', () => {
    const kept = { action: 'login', result: { type: 'data' }, values: { email: 'a', n: 1 } };
    expect(readKept(kept)).toEqual({ ...kept, values: { email: 'a' } });
    expect(readKept({ ...kept, action: 'bookStay' })).toBeUndefined();
    expect(readKept({ ...kept, result: 'x' })).toBeUndefined();
    expect(readKept('x')).toBeUndefined();
  });
});
