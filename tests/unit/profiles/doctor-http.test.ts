import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGetter } from '../../../src/lib/profiles/doctor/http.ts';

/** A getter on an API that answers 429 with `retryAfter` once, then 200. */
function getterAfter429(retryAfter: string) {
  let calls = 0;
  const fetch: typeof globalThis.fetch = () =>
    Promise.resolve(
      calls++ === 0
        ? new Response('{}', { status: 429, headers: { 'retry-after': retryAfter } })
        : Response.json({ data: [] }),
    );
  return createGetter({
    fetch,
    timeoutMs: 5000,
    maxBodyBytes: 10_000,
    baseUrl: 'https://api.example.com',
    headers: {},
    maxCalls: 10,
  });
}

/** The status `get` has answered after `ms` of (fake) time, or 'waiting'. */
async function statusAfter(retryAfter: string, ms: number) {
  let status: number | 'waiting' = 'waiting';
  void getterAfter429(retryAfter)
    .get('/posts')
    .then((answer) => (status = answer?.status ?? 0));
  await vi.advanceTimersByTimeAsync(ms);
  return status;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the doctor and an API's 429", () => {
  it('asks again at once when the API says Retry-After: 0', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    expect(await statusAfter('0', 100)).toBe(200);
  });

  it('waits what the API asks, a little over a minute at most', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    expect(await statusAfter('30', 29_000)).toBe('waiting');
    expect(await statusAfter('3600', 64_000)).toBe('waiting');
    expect(await statusAfter('3600', 66_000)).toBe(200);
  });
});

describe('the doctor and an API that never answers', () => {
  it('waits one timeout per read (no second attempt), then says it got no answer', async () => {
    let calls = 0;
    const fetch: typeof globalThis.fetch = (_url, init) => {
      calls += 1;
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
      });
    };
    const get = createGetter({
      fetch,
      timeoutMs: 50,
      maxBodyBytes: 10_000,
      baseUrl: 'https://api.example.com',
      headers: {},
      maxCalls: 10,
    });
    expect(await get.get('/posts')).toMatchObject({
      status: 0,
      problem: 'no answer within 50 ms (UPSTREAM_TIMEOUT_MS)',
    });
    expect(calls).toBe(1);
  });
});
