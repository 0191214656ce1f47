import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRenderer } from '../../../src/lib/static/build.ts';
import { ask } from '../../../src/lib/static/crawl.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';

// A built server that starts, then dies on a page as a renderer out of memory does, saying why on
// stderr; given the tenants file `hangs.json`, one that never listens.
const ENTRY = `
import http from 'node:http';
import { getHeapStatistics } from 'node:v8';
const server = http.createServer((req, res) => {
  if (req.url === '/memory') {
    const heapMb = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
    const { MALLOC_ARENA_MAX: arenas, LOG_LEVEL: log } = process.env;
    return res.end(JSON.stringify({ arenas, heapMb, log }));
  }
  if (req.url === '/killed') return process.kill(process.pid, 'SIGKILL');
  if (req.url !== '/epaper/long') return res.end('ok');
  process.stderr.write('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\\n');
  process.exit(134);
});
if (process.env.TENANTS_FILE.endsWith('hangs.json')) {
  process.stderr.write('waiting for the tenants file\\n');
  setInterval(() => undefined, 1000);
} else {
  server.listen(Number(process.env.PORT), process.env.HOST);
}
`;

const dir = mkdtempSync(join(tmpdir(), 'renderer-'));
mkdirSync(join(dir, 'server'));
writeFileSync(join(dir, 'server', 'entry.mjs'), ENTRY);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tenant = {
  id: 'daily-planet',
  publishing: { baseUrl: 'http://127.0.0.1:1' },
} as Tenant;

const start = (tenantsFile = 'tenants.json') =>
  startRenderer(dir, tenant, tenantsFile, join(dir, 'snapshot.json'), {
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

  it('is not left running when it never answers', { timeout: 60_000 }, async () => {
    const failure = await start('hangs.json').catch((caught: unknown) => caught);
    expect(String(failure)).toContain(
      'the rendering server did not start: waiting for the tenants file',
    );
    const running = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(running).not.toContain(join(dir, 'server', 'entry.mjs'));
  });
});
