import { expect, it } from 'vitest';
import { createGetter } from '../../../src/lib/profiles/doctor/http.ts';
it('counts', async () => {
  let calls = 0;
  const fetch: typeof globalThis.fetch = (_u, init) => {
    calls++;
    return new Promise((_r, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
  };
  const g = createGetter({ fetch, timeoutMs: 200, maxBodyBytes: 1000, baseUrl: 'https://x.example', headers: {}, maxCalls: 10 });
  const t0 = Date.now();
  const a = await g.get('/posts');
  console.log(calls, Date.now() - t0, a);
  expect(calls).toBe(1);
});
