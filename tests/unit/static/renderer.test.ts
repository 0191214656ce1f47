import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRenderer } from '../../../src/lib/static/build.ts';
import { ask } from '../../../src/lib/static/crawl.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';

// A built server that starts, then dies on a page as a renderer out of memory does, saying why on stderr.
const ENTRY = `
import http from 'node:http';
import { getHeapStatistics } from 'node:v8';
http.createServer((req, res) => {
  if (req.url === '/memory') {
    const heapMb = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
    return res.end(JSON.stringify({ arenas: process.env.MALLOC_ARENA_MAX, heapMb, log: process.env.LOG_LEVEL }));
  }
  if (req.url === '/killed') return process.kill(process.pid, 'SIGKILL');
  if (req.url !== '/epaper/long') return res.end('ok');
  process.stderr.write('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\\n');
  process.exit(134);
}).listen(Number(process.env.PORT), process.env.HOST);
`;

const dir = mkdtempSync(join(tmpdir(), 'renderer-'));
mkdirSync(join(dir, 'server'));
writeFileSync(join(dir, 'server', 'entry.mjs'), ENTRY);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tenant = {
  id: 'daily-planet',
  publishing: { baseUrl: 'http://127.0.0.1:1' },
} as Tenant;

const start = () =>
  startRenderer(dir, tenant, 'tenants.json', join(dir, 'snapshot.json'), {
    dir: join(dir, 'images'),
    secret: 'x'.repeat(32),
  });

describe('the rendering server', () => {
  it('runs with the memory settings of npm start, logging warnings and errors only', async () => {
    const renderer = await start();
    try {
      const memory = (await (await ask(renderer.url)('/memory')).json()) as Record<string, unknown>;
      expect(memory.arenas).toBe('2');
      expect(memory.heapMb).toBeLessThan(600);
      // A line per request would push the reason it died out of the build's failure.
      expect(memory.log).toBe('warn');
    } finally {
      await renderer.stop();
    }
  });
});

describe('a rendering server that dies during the crawl', () => {
  it('fails the build with how it ended and its last output', async () => {
    const renderer = await start();
    try {
      expect((await ask(renderer.url)('/')).status).toBe(200);
      const error = await ask(renderer.url)('/epaper/long').catch((caught: unknown) => caught);
      const failure = await renderer.failure(error);
      expect(failure.message).toMatch(/^daily-planet: fetch failed: /);
      expect(failure.message).toContain('the rendering server stopped (134)');
      expect(failure.message).toContain('JavaScript heap out of memory');
      expect(renderer.ended()).toBe(true);
    } finally {
      await renderer.stop();
    }
  });

  it('is stopped at once when the system killed it (the build ends instead of waiting forever)', async () => {
    const renderer = await start();
    const error = await ask(renderer.url)('/killed').catch((caught: unknown) => caught);
    expect((await renderer.failure(error)).message).toContain(
      'the rendering server stopped (SIGKILL)',
    );
    await renderer.stop();
  });
});
