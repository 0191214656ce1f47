import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { registry, upstreamSink } from '../../../src/lib/observability/prometheus.ts';
import { loggedPath } from '../../../src/lib/observability/request.ts';
import { redirectLogLines } from '../../../src/lib/log/log.ts';
import { runInRequest } from '../../../src/lib/log/request-context.ts';
import { budgetKeys } from '../../../src/lib/upstream/budget.ts';
import { TimeoutError } from '../../../src/lib/upstream/errors.ts';
import { sendRequest } from '../../../src/lib/upstream/http.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';
import { json, startServer, testUpstream } from '../upstream/helpers.ts';

describe('the Grafana dashboard', () => {
  it('graphs only series the exporter has', async () => {
    const dashboard = readFileSync(
      new URL('../../../deploy/grafana/masthead-dashboard.json', import.meta.url),
      'utf8',
    );
    const used = new Set(
      [...dashboard.matchAll(/masthead_[a-z_0-9]+/g)].map(([name]) =>
        name.replace(/_(bucket|count|sum)$/, ''),
      ),
    );
    const exported = new Set((await registry.getMetricsAsJSON()).map((metric) => metric.name));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });
});

describe('the upstream sink', () => {
  it('counts calls by operation and status, and the calls of the request it runs in', async () => {
    const record = { upstreamCalls: 0 };
    runInRequest(record, () => {
      upstreamSink.count('publishing', 'sink-test', 'upstreamCalls', 1);
      upstreamSink.answered('publishing', 'sink-test', 'posts.list', '429');
      upstreamSink.count('publishing', 'sink-test', 'rateLimited429', 1);
      upstreamSink.count('publishing', 'sink-test', 'cacheHits', 2);
      upstreamSink.count('publishing', 'sink-test', 'droppedItems', 1);
    });
    expect(record.upstreamCalls).toBe(1);
    const text = await registry.metrics();
    expect(text).toContain(
      'masthead_upstream_calls_total{service="publishing",tenant="sink-test",operation="posts.list",status="429"} 1',
    );
    expect(text).toContain(
      'masthead_upstream_refused_total{service="publishing",tenant="sink-test",reason="429"} 1',
    );
    expect(text).toContain(
      'masthead_upstream_cache_total{service="publishing",tenant="sink-test",result="hit"} 2',
    );
    expect(text).toContain(
      'masthead_upstream_items_dropped_total{service="publishing",tenant="sink-test"} 1',
    );
  });
});

describe('upstream failures on /_metrics', () => {
  it('are counted by tenant, service and class, the classes /_status counts', async () => {
    // One API down (503), one answering a body that is not the site's JSON.
    const api = await startServer((r, res) => {
      if (r.url.endsWith('/down')) return json(res, 503, { message: 'Down' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": [');
    });
    const metrics = createMetrics({ log: () => undefined, sink: upstreamSink });
    const { up } = testUpstream({ metrics, http: { maxRetries: 0 } });
    const send = (path: string) =>
      sendRequest(up, {
        service: 'publishing',
        operation: 'posts.list',
        tenant: 'errors-test',
        baseUrl: api.baseUrl,
        path,
        budgetKey: budgetKeys.publishingPublic(api.baseUrl),
      }).catch(() => undefined);
    await send('/down');
    await send('/down');
    await send('/broken');
    await api.close();
    const text = await registry.metrics();
    const series = (errorClass: string, n: number) =>
      `masthead_upstream_errors_total{tenant="errors-test",service="publishing",class="${errorClass}"} ${n}`;
    expect(text).toContain(series('UpstreamServerError', 2));
    expect(text).toContain(series('InvalidResponseError', 1));
    expect(Object.keys(metrics.getStatus().totals.errors).sort()).toEqual([
      'InvalidResponseError',
      'UpstreamServerError',
    ]);
  });
});

describe('upstream failures in the process log', () => {
  it('are one warning line each, with the tenant and the error, never the request', () => {
    const lines: string[] = [];
    const restore = redirectLogLines((line) => lines.push(line));
    try {
      const error = new TimeoutError(
        '[publishing] posts.list GET /posts: no response within 5 ms',
        {
          service: 'publishing',
          operation: 'posts.list',
        },
      );
      createMetrics().failure('daily-planet', error);
    } finally {
      restore();
    }
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        level: 'warn',
        event: 'upstream_failure',
        tenant: 'daily-planet',
        error: 'TimeoutError',
        service: 'publishing',
        operation: 'posts.list',
        status: null,
      }),
    ]);
  });
});

describe('a logged path', () => {
  it.each([
    ['/posts/hello?page=2', '/posts/hello?page=2'],
    ['/search?q=my+name&token=abc', '/search?q=…&token=…'],
    ['/stay/manage/secret-token/calendar.ics', '/stay/manage/[token]/calendar.ics'],
    ['/STAY/MANAGE/secret-token', '/STAY/MANAGE/[token]'],
    ['/stay/Manage/secret-token/', '/stay/Manage/[token]/'],
    ['/stay/m%61nage/secret-token', '/stay/m%61nage/[token]'],
    ['/en/stay/manage/secret-token', '/en/stay/manage/[token]'],
    ['/stay/manage/', '/stay/manage/'],
    ['/login?email=a%40b.c&_action=login', '/login?email=…&_action=login'],
  ])('%s → %s', (address, logged) => {
    expect(loggedPath(new URL(address, 'http://example.test'))).toBe(logged);
  });
});
