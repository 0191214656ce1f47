/**
 * What an operator sees (issue 24): Prometheus scrapes every server's `/_metrics` and graphs each
 * tenant; every request leaves one JSON log line without secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUESSES_PER_WINDOW } from '../../src/lib/request/secret-attempts.ts';
import { send, waitFor } from './http.ts';
import type { Service } from './processes.ts';
import { METRICS_TOKEN, startPrometheus, startTwoServers } from './stack.ts';
import type { TwoServers } from './stack.ts';

let stack: TwoServers;
let sites: Service[];
let prometheus: Service;
const url = (site: Service, path: string) => `http://127.0.0.1:${site.port}${path}`;

beforeAll(async () => {
  stack = await startTwoServers();
  sites = stack.sites;
  prometheus = await startPrometheus(sites.map((site) => site.port));
});

afterAll(async () => {
  await prometheus?.stop();
  await stack?.stop();
});

interface Series {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(promql: string): Promise<Series[]> {
  const reply = await send(
    `http://127.0.0.1:${prometheus.port}/api/v1/query?query=${encodeURIComponent(promql)}`,
  );
  const body = JSON.parse(reply.text) as { status: string; data: { result: Series[] } };
  expect(body.status).toBe('success');
  return body.data.result;
}

describe('metrics', () => {
  it('are refused to a request from outside without the token', async () => {
    const [first] = sites as [Service];
    const outside = { 'X-Forwarded-For': '203.0.113.9' };
    expect((await send(url(first, '/_metrics'), { headers: outside })).status).toBe(403);
    const wrong = await send(url(first, '/_metrics'), {
      headers: { ...outside, Authorization: 'Bearer not-the-token' },
    });
    expect(wrong.status).toBe(403);
    const allowed = await send(url(first, '/_metrics'), {
      headers: { ...outside, Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['cache-control']).toBe('no-store');
    expect(allowed.text).toContain('# TYPE masthead_http_responses_total counter');
  });

  it('are refused to a local proxy that names the visitor in Forwarded or X-Real-IP', async () => {
    const [first] = sites as [Service];
    for (const headers of [{ Forwarded: 'for=203.0.113.9' }, { 'X-Real-IP': '203.0.113.9' }]) {
      const reply = await send(url(first, '/_metrics'), { headers });
      expect(reply.status).toBe(403);
      expect(reply.text).not.toContain('masthead_http_responses_total');
    }
    expect((await send(url(first, '/_metrics'))).status).toBe(200);
  });

  it('reach Prometheus from both servers, per tenant', async () => {
    for (const site of sites) {
      for (const host of ['daily-planet.localhost', 'harbour-times.localhost']) {
        expect((await send(url(site, '/'), { host })).status).toBe(200);
      }
    }
    const responses = await waitFor(
      'both servers’ daily-planet responses in Prometheus',
      async () => {
        const found = await query(
          'masthead_http_responses_total{tenant="daily-planet",class="2xx"}',
        );
        const instances = new Set(found.map((series) => series.metric['instance']));
        return instances.size === 2 ? found : undefined;
      },
    );
    expect(responses.every((series) => Number(series.value[1]) >= 1)).toBe(true);

    const calls = await waitFor('upstream calls of harbour-times', async () => {
      const found = await query(
        'sum by (operation) (masthead_upstream_calls_total{tenant="harbour-times",status="200"})',
      );
      return found.length > 0 ? found : undefined;
    });
    expect(calls.map((series) => series.metric['operation'])).toContain('posts.list');

    const budget = await waitFor('the budget left of daily-planet', async () => {
      const found = await query('masthead_upstream_budget_remaining{tenant="daily-planet"}');
      return found.length === 2 ? found : undefined;
    });
    for (const series of budget) {
      expect(Number(series.value[1])).toBeGreaterThan(0);
      expect(Number(series.value[1])).toBeLessThan(54);
    }
    const renders = await query('masthead_render_seconds_count{tenant="daily-planet"}');
    expect(renders.length).toBeGreaterThan(0);
  });
});

describe('request log', () => {
  it('is one JSON line per request, without tokens or cookies', async () => {
    const [first] = sites as [Service];
    const secretCookie = 'astro-session=deploy-suite-cookie-value';
    const reply = await send(url(first, '/search?q=harbour&token=deploy-suite-query-secret'), {
      host: 'harbour-times.localhost',
      headers: { Cookie: secretCookie, Authorization: 'Bearer deploy-suite-bearer' },
    });
    expect(reply.status).toBeLessThan(500);
    await send(url(first, '/_metrics'), {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const lines = await waitFor('the search request’s log line', () => {
      const printed = first.printed.split('\n').filter((line) => line.startsWith('{'));
      const parsed = printed.map((line) => JSON.parse(line) as Record<string, unknown>);
      return Promise.resolve(
        parsed.some((line) => String(line['path']).startsWith('/search')) ? parsed : undefined,
      );
    });
    const search = lines.find((line) => String(line['path']).startsWith('/search'))!;
    expect(search).toMatchObject({
      level: 'info',
      event: 'request',
      tenant: 'harbour-times',
      method: 'GET',
      status: reply.status,
    });
    expect(typeof search['time']).toBe('string');
    expect(typeof search['durationMs']).toBe('number');
    expect(typeof search['upstreamCalls']).toBe('number');
    expect(search['cache']).toBeTypeOf('string');
    await send(url(first, '/STAY/MANAGE/deploy-suite-manage-token'), {
      host: 'harbour-times.localhost',
    });
    await waitFor('the upper-case manage path’s log line', () =>
      Promise.resolve(first.printed.includes('/STAY/MANAGE/[token]') || undefined),
    );
    const all = first.printed;
    for (const secret of [
      'deploy-suite-query-secret',
      'deploy-suite-cookie-value',
      'deploy-suite-bearer',
      'deploy-suite-manage-token',
      METRICS_TOKEN,
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});

describe('guessing the metrics token', () => {
  it('is stopped for both servers together, from however many addresses', async () => {
    const [first, second] = sites as [Service, Service];
    const guess = (site: Service, token: string, address: string) =>
      send(url(site, '/_metrics'), {
        headers: { 'X-Forwarded-For': address, Authorization: `Bearer ${token}` },
      });
    // The wrong token of the first test counts too: this loop's last guess is one too many.
    const statuses: number[] = [];
    for (let i = 0; i < GUESSES_PER_WINDOW; i += 1) {
      const site = i % 2 === 0 ? first : second;
      statuses.push((await guess(site, `guess-${i}`, `198.51.100.${i + 1}`)).status);
    }
    expect(statuses.slice(0, -1).every((status) => status === 403)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const late = await guess(first, METRICS_TOKEN, '192.0.2.1');
    expect(late.status).toBe(429);
    expect(Number(late.headers['retry-after'])).toBeGreaterThan(0);
    expect((await guess(second, METRICS_TOKEN, '192.0.2.2')).status).toBe(429);
    // Prometheus on this machine scrapes without a token and is not locked out.
    expect((await send(url(second, '/_metrics'))).status).toBe(200);
  });
});
