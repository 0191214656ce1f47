import { afterEach, describe, expect, it, vi } from 'vitest';
import { failedLoad, retryAfterOf } from '../../../src/lib/delivery/policy.ts';
import { classify } from '../../../src/lib/failures/classify.ts';
import { budgetKeys } from '../../../src/lib/upstream/budget.ts';
import {
  InvalidResponseError,
  isOutage,
  NetworkError,
  NoRouteError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UpstreamError,
  UpstreamServerError,
  ValidationError,
} from '../../../src/lib/upstream/errors.ts';
import {
  retryDelayMs,
  sendRequest,
  DEFAULT_HTTP_SETTINGS,
} from '../../../src/lib/upstream/http.ts';
import type { HttpMethod, UpstreamRequest } from '../../../src/lib/upstream/http.ts';
import type { Upstream } from '../../../src/lib/upstream/runtime.ts';
import { runAsVisitor } from '../../../src/lib/upstream/visitor.ts';
import { json, startServer, testUpstream } from './helpers.ts';
import type { Handler, TestServer } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: Handler, timeoutMs = 2000) {
  server = await startServer(handler);
  const { up, lines } = testUpstream({ http: { timeoutMs } });
  return { server, up, lines };
}

function req(base: string, extra: Partial<UpstreamRequest> = {}): UpstreamRequest {
  return {
    service: 'publishing',
    operation: 'test.op',
    tenant: 'daily-planet',
    baseUrl: base,
    path: '/thing',
    budgetKey: budgetKeys.publishingPublic(base),
    ...extra,
  };
}

const send = (up: Upstream, r: UpstreamRequest) =>
  sendRequest({ budget: up.budget, metrics: up.metrics, http: up.http }, r);

describe('sendRequest', () => {
  it('sends Accept, JSON bodies, the tenant header and the bearer token', async () => {
    const { server, up } = await setup((_r, res) => json(res, 201, { data: { ok: true } }));
    const out = await send(
      up,
      req(server.baseUrl, {
        method: 'POST',
        body: { a: 1 },
        headers: { 'X-Tenant': 'daily-planet' },
        token: 'secret-token',
        query: { page: 2, skip: undefined },
      }),
    );
    expect(out).toEqual({ data: { ok: true } });
    const seen = server.seen[0];
    expect(seen?.url).toBe('/api/v1/thing?page=2');
    expect(seen?.headers['accept']).toBe('application/json');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['x-tenant']).toBe('daily-planet');
    expect(seen?.headers['authorization']).toBe('Bearer secret-token');
    expect(JSON.parse(seen?.body ?? '')).toEqual({ a: 1 });
  });

  it.each([500, 502, 503, 504, 408])('retries a GET on %i at most twice', async (status) => {
    const { server, up } = await setup((_r, res) => json(res, status, { message: 'down' }));
    const error: unknown = await send(up, req(server.baseUrl)).catch((e: unknown) => e);
    expect(server.seen).toHaveLength(3);
    expect(error).toBeInstanceOf(status === 408 ? Error : UpstreamServerError);
  });

  it.each<HttpMethod>(['POST', 'PATCH', 'PUT', 'DELETE'])('never retries a %s', async (method) => {
    const { server, up } = await setup((_r, res) => json(res, 503, { message: 'down' }));
    await expect(send(up, req(server.baseUrl, { method, body: {} }))).rejects.toBeInstanceOf(
      UpstreamServerError,
    );
    expect(server.seen).toHaveLength(1);
  });

  it('succeeds when a retry does', async () => {
    let n = 0;
    const { server, up } = await setup((_r, res) =>
      (n += 1) < 3 ? json(res, 502, {}) : json(res, 200, { data: 'ok' }),
    );
    await expect(send(up, req(server.baseUrl))).resolves.toEqual({ data: 'ok' });
    expect(server.seen).toHaveLength(3);
  });

  it.each([
    [404, NotFoundError],
    [422, ValidationError],
  ])('does not retry %i', async (status, cls) => {
    const { server, up } = await setup((_r, res) =>
      json(res, status, { message: 'x', errors: { title: ['required'] } }),
    );
    await expect(send(up, req(server.baseUrl))).rejects.toBeInstanceOf(cls);
    expect(server.seen).toHaveLength(1);
  });

  it.each([404, 401, 403])(
    'takes a %i with an HTML body for a proxy in the way (an outage), not an API answer',
    async (status) => {
      // nginx's own error page while the API is being deployed: the API answers JSON (contract).
      const { server, up } = await setup((_r, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end(`<html><body><h1>${status}</h1><hr><center>nginx</center></body></html>`);
      });
      const error = await send(up, req(server.baseUrl)).catch((e: unknown) => e);
      // An outage: the cache serves its copy instead of a "not found" page (or a sign-out).
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(isOutage(error)).toBe(true);
      expect((error as InvalidResponseError).status).toBe(status);
    },
  );

  it('honours Retry-After within the cap', async () => {
    const times: number[] = [];
    const { server, up } = await setup((_r, res) => {
      times.push(Date.now());
      if (times.length === 1) json(res, 503, { message: 'Busy.' }, { 'retry-after': '0.3' });
      else json(res, 200, { data: 1 });
    });
    await send(up, req(server.baseUrl));
    expect(server.seen).toHaveLength(2);
    // The test backoff is at most 20 ms: only Retry-After makes the retry wait this long.
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(300);
  });

  it('does not wait for a Retry-After beyond the cap', async () => {
    const { server, up } = await setup((_r, res) =>
      json(res, 503, { message: 'Maintenance.' }, { 'retry-after': '30' }),
    );
    await expect(send(up, req(server.baseUrl))).rejects.toBeInstanceOf(UpstreamServerError);
    expect(server.seen).toHaveLength(1);
  });

  it('tells readers to come back when a 503 said (its Retry-After, 600 s), not in 30 s', async () => {
    const { server, up } = await setup((_r, res) =>
      json(res, 503, { message: 'Maintenance.' }, { 'retry-after': '600' }),
    );
    const error = await send(up, req(server.baseUrl)).catch((e: unknown) => e);
    expect(failedLoad(error)).toMatchObject({ status: 503, retryAfter: 600 });
  });

  it('does not retry a 429; the next page is refused for its Retry-After (7 s), not a minute', async () => {
    const { server, up } = await setup((_r, res) =>
      json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '7' }),
    );
    const request = req(server.baseUrl);
    const error = await send(up, request).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RateLimitedError', local: false });
    expect(server.seen).toHaveLength(1);
    // The next page is refused by the budget, not sent: "try again in 7 s" and `Retry-After: 7`.
    const next = await send(up, request).catch((e: unknown) => e);
    expect(next).toMatchObject({ name: 'RateLimitedError', local: true });
    expect(server.seen).toHaveLength(1);
    const busy = classify(next);
    expect(busy.kind).toBe('busy');
    if (busy.kind !== 'busy') return;
    expect(retryAfterOf(busy)).toBeGreaterThanOrEqual(6);
    expect(retryAfterOf(busy)).toBeLessThanOrEqual(7);
  });

  it('gives up at once when Retry-After exceeds the cap', async () => {
    const { server, up } = await setup((_r, res) =>
      json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '30' }),
    );
    const error = await send(up, req(server.baseUrl)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBe(30);
    expect((error as RateLimitedError).local).toBe(false);
    expect(server.seen).toHaveLength(1);
    expect(up.metrics.getStatus().totals.rateLimited429).toBe(1);
  });

  it('reads a Retry-After date on the upstream clock (its Date header), not ours', async () => {
    // The API's clock runs an hour ahead of ours; its 429 says "30 seconds from my now".
    const { server, up } = await setup((_r, res) => {
      const theirs = Date.now() + 3_600_000;
      json(
        res,
        429,
        { message: 'Too Many Attempts.' },
        {
          date: new Date(theirs).toUTCString(),
          'retry-after': new Date(theirs + 30_000).toUTCString(),
        },
      );
    });
    const request = req(server.baseUrl);
    const error = await send(up, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(29);
    expect((error as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual(31);
    // The budget shuts for the upstream's minute, not for the hour between the two clocks.
    const next = await up.budget.take(request.budgetKey, 'write');
    expect(next.ok).toBe(false);
    if (!next.ok) expect(next.retryAfterSeconds).toBeLessThanOrEqual(61);
  });

  it('maps a slow response to TimeoutError (and retries the GET)', async () => {
    // A server that never answers (its connections are closed with it).
    const { server, up } = await setup(() => undefined, 80);
    await expect(send(up, req(server.baseUrl))).rejects.toBeInstanceOf(TimeoutError);
    expect(server.seen).toHaveLength(3);
  });

  it('cuts off a body that stalls half-way at the timeout too', async () => {
    const { server, up } = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": [');
    }, 80);
    await expect(send(up, req(server.baseUrl))).rejects.toBeInstanceOf(TimeoutError);
    expect(up.metrics.getStatus().totals.errors).toEqual({ TimeoutError: 1 });
  });

  it('charges every attempt to the budget, retries included', async () => {
    const { server, up } = await setup((_r, res) => json(res, 503, { message: 'Down' }));
    const r = req(server.baseUrl);
    const before = (await up.budget.standing(r.budgetKey)).remaining;
    await send(up, r).catch(() => undefined);
    expect(before - (await up.budget.standing(r.budgetKey)).remaining).toBe(3);
    expect(up.metrics.getStatus().totals.upstreamCalls).toBe(3);
  });

  it('maps a refused connection to NetworkError, whose log line says why (not "fetch failed")', async () => {
    const { server, up, lines } = await setup((_r, res) => json(res, 200, {}));
    const base = server.baseUrl;
    await server.close();
    const error = await send(up, req(base)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(lines.at(-1)).toContain(`connect ECONNREFUSED ${new URL(base).host}`);
  });

  it('spends nothing on a connection the upstream refused: readers are not "busy" once it is back', async () => {
    const { server, up } = await setup((_r, res) => json(res, 200, {}));
    const r = req(server.baseUrl);
    const before = (await up.budget.standing(r.budgetKey)).remaining;
    await server.close();
    // An outage: every page's call (and its retries) is refused, more of them than the budget.
    for (let n = 0; n < before; n += 1) await send(up, r).catch(() => undefined);
    expect((await up.budget.standing(r.budgetKey)).remaining).toBe(before);
  });

  it.each([
    ['an address it cannot encode (a lone surrogate in the query)', { query: { q: 'a\ud800' } }],
    ['a body it cannot serialize', { method: 'POST' as const, body: { n: 1n } }],
    ['a body on a GET, which fetch refuses', { body: { a: 1 } }],
  ])(
    'throws a bug of ours (%s) as it is: no outage (a 503 and a stale copy), nothing sent or spent',
    async (_what, extra) => {
      const { server, up, lines } = await setup((_r, res) => json(res, 200, {}));
      const r = req(server.baseUrl, extra);
      const before = (await up.budget.standing(r.budgetKey)).remaining;
      const error = await send(up, r).catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(UpstreamError);
      expect(classify(error).kind).toBe('unexpected');
      expect(isOutage(error)).toBe(false);
      expect(server.seen).toHaveLength(0);
      expect(lines).toEqual([]);
      // Never left this server: the tenant's budget is whole for the calls that do.
      expect((await up.budget.standing(r.budgetKey)).remaining).toBe(before);
      expect(up.metrics.getStatus().totals.upstreamCalls).toBe(0);
    },
  );

  it('starts an attempt’s timeout once the budget let it leave, not while it waited', async () => {
    const { server, up } = await setup((_r, res) => json(res, 200, { data: 1 }), 150);
    // A budget that makes every call wait 300 ms for its window (a static build's pacer does so).
    const budget = {
      ...up.budget,
      take: async (...args: Parameters<typeof up.budget.take>) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return up.budget.take(...args);
      },
    };
    const out = await sendRequest(
      { budget, metrics: up.metrics, http: up.http },
      req(server.baseUrl),
    );
    expect(out).toEqual({ data: 1 });
    expect(server.seen).toHaveLength(1);
  });

  it('maps a non-JSON 200 to InvalidResponseError', async () => {
    const { server, up } = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    await expect(send(up, req(server.baseUrl))).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('logs one JSON line per failure, never the token', async () => {
    const { server, up, lines } = await setup((_r, res) =>
      json(res, 403, { message: 'This action is unauthorized.' }),
    );
    await send(up, req(server.baseUrl, { token: 'super-secret-token' })).catch(() => undefined);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({
      tenant: 'daily-planet',
      service: 'publishing',
      operation: 'test.op',
      status: 403,
      error: 'ForbiddenError',
    });
    expect(lines[0]).not.toContain('super-secret-token');
  });

  it('reports rate headers to the budget', async () => {
    const { server, up } = await setup((_r, res) =>
      json(res, 200, {}, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '3' }),
    );
    const r = req(server.baseUrl);
    await send(up, r);
    // 3 left upstream, minus the 10% reserve of 60 (6): nothing left for us.
    expect((await up.budget.standing(r.budgetKey)).remaining).toBe(0);
    await expect(send(up, r)).rejects.toMatchObject({ name: 'RateLimitedError', local: true });
    expect(server.seen).toHaveLength(1);
  });
});

describe('retryDelayMs', () => {
  it('grows exponentially with jitter and respects Retry-After', () => {
    const s = DEFAULT_HTTP_SETTINGS;
    expect(retryDelayMs(s, 0, undefined, () => 0)).toBe(100);
    expect(retryDelayMs(s, 0, undefined, () => 1)).toBe(200);
    expect(retryDelayMs(s, 1, undefined, () => 1)).toBe(400);
    expect(retryDelayMs(s, 10, undefined, () => 1)).toBe(s.backoffMaxMs);
    expect(retryDelayMs(s, 0, 3, () => 1)).toBe(3050);
  });
});

describe('sendRequest inside a page render', () => {
  const asPage = <T>(deadline: number, fn: () => Promise<T>) =>
    runAsVisitor({ visitor: 'ip:10.0.0.1', crawler: false, deadline }, fn);

  it('starts no retry that could not finish before the page deadline', async () => {
    const { server, up } = await setup((_r, res) => json(res, 503, { message: 'Down' }));
    // Backoff of 2.5 to 5 s, with 2 s of the page left: no retry fits.
    const deps = {
      budget: up.budget,
      metrics: up.metrics,
      http: { ...up.http, backoffBaseMs: 5000, backoffMaxMs: 5000 },
    };
    await expect(
      asPage(Date.now() + 2000, () => sendRequest(deps, req(server.baseUrl))),
    ).rejects.toBeInstanceOf(UpstreamServerError);
    expect(server.seen).toHaveLength(1);
    // With time for it, the page retries like any caller.
    server.seen.length = 0;
    await expect(
      asPage(Date.now() + 60_000, () => send(up, req(server.baseUrl))),
    ).rejects.toBeInstanceOf(UpstreamServerError);
    expect(server.seen).toHaveLength(3);
  });

  it('sends nothing once the page deadline has passed', async () => {
    const { server, up } = await setup((_r, res) => json(res, 200, { data: [] }));
    await expect(
      asPage(Date.now() - 1, () => send(up, req(server.baseUrl))),
    ).rejects.toBeInstanceOf(TimeoutError);
    expect(server.seen).toHaveLength(0);
  });
});

describe('sendRequest: upstream answers it does not take as they come', () => {
  const big = async (handler: Handler) => {
    server = await startServer(handler);
    return { server, ...testUpstream({ http: { timeoutMs: 2000, maxBodyBytes: 1024 } }) };
  };

  it('refuses a body whose Content-Length is over the cap, without reading it', async () => {
    const { server, up } = await big((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '10485760' });
      res.write('{"data": "');
    });
    const error = await send(up, req(server.baseUrl)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toBe('body over 1024 bytes');
  });

  it('stops reading a body streamed past the cap (no Content-Length)', async () => {
    const { server, up } = await big((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('error', () => undefined);
      res.write('{"data": "');
      const chunk = 'x'.repeat(16 * 1024);
      // Endless: only the reader's cap (or the timeout) ends it.
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const error = await send(up, req(server.baseUrl)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(isOutage(error)).toBe(true);
  });

  it.each<[HttpMethod, number]>([
    ['POST', 301],
    ['POST', 302],
    ['POST', 303],
    ['PUT', 303],
    ['PATCH', 303],
    ['DELETE', 303],
    ['POST', 307],
  ])(
    'does not follow a redirect of a %s (%i): one log line names it and its Location',
    async (method, status) => {
      const { server, up, lines } = await setup((r, res) => {
        if (r.method === 'GET') return json(res, 200, { data: 'the answer to a GET' });
        res.writeHead(status, { location: '/api/v1/elsewhere?page=2' });
        res.end();
      });
      const error = await send(up, req(server.baseUrl, { method, body: { a: 1 } })).catch(
        (e: unknown) => e,
      );
      // Not the GET's answer: a write that was not done, and the address to fix.
      expect(error).toBeInstanceOf(NoRouteError);
      expect(server.seen.map((seen) => seen.method)).toEqual([method]);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
        tenant: 'daily-planet',
        operation: 'test.op',
        status,
      });
      expect(lines[0]).toContain(`${new URL(server.baseUrl).origin}/api/v1/elsewhere`);
    },
  );

  it('follows a redirect of a GET', async () => {
    const { server, up } = await setup((r, res) => {
      if (r.url === '/api/v1/thing') {
        res.writeHead(301, { location: '/api/v1/moved' });
        res.end();
      } else json(res, 200, { data: 'moved' });
    });
    await expect(send(up, req(server.baseUrl))).resolves.toEqual({ data: 'moved' });
  });

  /** An API at 127.0.0.1 that sends `localhost` callers there (another origin, like http → https). */
  const movedApi: Handler = (r, res) => {
    const [host, port] = (r.headers.host ?? '').split(':');
    if (host === 'localhost') {
      res.writeHead(301, { location: `http://127.0.0.1:${port}${r.url}` });
      res.end();
      return;
    }
    return r.headers.authorization
      ? json(res, 200, { data: 'for the token' })
      : json(res, 401, { message: 'Unauthenticated.' });
  };

  it('refuses what a GET with a token got from another origin (sent without it), naming the origin to use', async () => {
    const { server, up, lines } = await setup(movedApi);
    const base = server.baseUrl.replace('127.0.0.1', 'localhost');
    const error = await send(up, req(base, { token: 'read-token-123' })).catch((e: unknown) => e);
    // Not "signed out" (401): the tenant's address is wrong, and the log says which to use.
    expect(error).toBeInstanceOf(NoRouteError);
    expect(server.seen[1]?.headers.authorization).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ tenant: 'daily-planet' });
    expect(lines[0]).toContain(`use ${new URL(server.baseUrl).origin} in its baseUrl`);
    expect(lines[0]).not.toContain('read-token-123');
  });

  it('logs a tenant whose address redirects once, not on every call, and counts every call', async () => {
    const { server, up, lines } = await setup(movedApi);
    const base = server.baseUrl.replace('127.0.0.1', 'localhost');
    const other = { tenant: 'other-paper', token: 'read-token-456' };
    for (const extra of [{}, {}, { operation: 'posts.list' }, other, other])
      await send(up, req(base, { token: 'read-token-123', ...extra })).catch(() => undefined);
    // One line per tenant (and address): the log names the problem, /_status its extent.
    expect(lines.map((line) => (JSON.parse(line) as { tenant: string }).tenant)).toEqual([
      'daily-planet',
      'other-paper',
    ]);
    const counted = up.metrics.getStatus().byTenant;
    expect(counted['publishing:daily-planet']?.errors).toEqual({ NoRouteError: 3 });
    expect(counted['publishing:other-paper']?.errors).toEqual({ NoRouteError: 2 });
    // Still not fixed ten minutes on: said again.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 });
    try {
      await send(up, req(base, other)).catch(() => undefined);
    } finally {
      vi.useRealTimers();
    }
    expect(lines).toHaveLength(3);
  });

  it('follows a GET without a token to another origin', async () => {
    const { server, up } = await setup((r, res) =>
      r.headers.host?.startsWith('localhost')
        ? movedApi(r, res)
        : json(res, 200, { data: 'public' }),
    );
    const base = server.baseUrl.replace('127.0.0.1', 'localhost');
    await expect(send(up, req(base))).resolves.toEqual({ data: 'public' });
  });
});
