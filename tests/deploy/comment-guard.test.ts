/**
 * Comments keep their guard while Redis is away (issue 33): a server with `REDIS_URL` remembers each
 * posted comment's key in Redis, so that every server knows it. While Redis does not answer a post
 * is refused with 503, "try again shortly" and the typed text back in the form (the page answers
 * the post itself: the session that would carry it across a redirect lives in Redis too), and no
 * comment reaches the publishing API. Once Redis is back the same post goes through, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './http.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startRedis, startSite, type Mock } from './stack.ts';

const HOST = 'daily-planet.localhost';
const POST = '/posts/welcome-to-our-new-website';

let mock: Mock;
let redis: Service;
let site: Service;

beforeAll(async () => {
  mock = await startDocumentedMock();
  redis = await startRedis();
  site = await startSite({ mock, redisUrl: `redis://127.0.0.1:${redis.port}` });
});

afterAll(async () => {
  await site?.stop();
  await redis?.stop();
  await mock?.close();
});

/** Comments the publishing API has been sent (the mock's own count). */
async function writes(): Promise<number> {
  const stats = JSON.parse((await send(`${mock.controlUrl}/stats`)).text) as {
    publishing: { routes: Record<string, number> };
  };
  return stats.publishing.routes['POST /posts/{slug}/comments'] ?? 0;
}

const comment = (content: string, key: string) =>
  send(`http://127.0.0.1:${site.port}${POST}?_action=postComment`, {
    method: 'POST',
    host: HOST,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: `http://${HOST}`,
    },
    body: new URLSearchParams({
      post: 'welcome-to-our-new-website',
      content,
      name: 'Gina Guest',
      email: 'gina@example.com',
      key,
    }).toString(),
  });

describe('a guest comment while Redis is away', () => {
  it('is refused with 503 and the text kept, then posts once when Redis is back', async () => {
    const content = `Posted while Redis was away ${Date.now()}`;
    const key = crypto.randomUUID().replaceAll('-', '');
    const before = await writes();

    await redis.stop();
    const refused = await comment(content, key);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['cache-control']).toContain('no-store');
    expect(refused.text).toContain('so yours was not posted. Please try again in a minute');
    // What the guest typed is back in the form.
    expect(refused.text).toContain(content);
    expect(await writes()).toBe(before);

    await redis.start();
    let posted = await comment(content, key);
    for (let i = 0; i < 50 && posted.status !== 303; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      posted = await comment(content, key);
    }
    expect(posted.status).toBe(303);
    // Sent again (a retry of a lost answer): the same comment, not a second one.
    expect((await comment(content, key)).status).toBe(303);
    expect(await writes()).toBe(before + 1);
  });
});
