/**
 * `E2E_BUILT=dist node bench/tenant-count.ts [--counts 3,50,500] [--seconds 5]` (bench/tenants.md,
 * "Does a server get slower with more tenants?"): one `npm start` per count of tenants (copies of
 * daily-planet on `t<n>.localhost`, answered by the mock as daily-planet: ./origin-tenants.ts),
 * the build of `E2E_BUILT` (default dist-deploy/). For each: start-up (spawn to first answer), RSS
 * once started, a reload (`SIGHUP` with one tenant more, to its log line), and requests per second
 * of two pages that look through every tenant: an unknown host's 404 and a `/<id>/` page of the
 * last tenant rendered on a new host each time (never a route-cache hit). Not a test: figures.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startMock } from '../mock/index.ts';
import { send } from '../tests/deploy/http.ts';
import { startSite } from '../tests/deploy/stack.ts';
import { startTenantProxy, tenantsFile } from './origin-tenants.ts';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const counts = option('counts', '3,50,500').split(',').map(Number);
const seconds = Number(option('seconds', '5'));

const repoFile = readFileSync(new URL('../tenants.json', import.meta.url), 'utf8');
const file = join(tmpdir(), `masthead-tenant-count-${process.pid}.json`);
const mock = await startMock({ publishingPort: 0, lodgingPort: 0, controlPort: 0 });
const proxy = await startTenantProxy(mock.publishingUrl);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid: number | undefined) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

/** Requests per second of `path`, each with the Host `host(n)`; throws on any non-2xx but `expect`. */
async function rps(url: string, host: (n: number) => string, expect: number) {
  let n = 0;
  const setupRequest = (req: object) => ({ ...req, headers: { host: host(n++) } });
  const once = (duration: number) =>
    autocannon({ url, connections: 8, duration, requests: [{ setupRequest }] });
  await once(1);
  const result = await once(seconds);
  const other = Object.keys(result.statusCodeStats ?? {}).filter((code) => Number(code) !== expect);
  if (other.length > 0 || result.errors > 0) throw new Error(`${url}: ${JSON.stringify(other)}`);
  return Math.round(result.requests.average);
}

const rows = [];
try {
  for (const count of counts) {
    writeFileSync(file, tenantsFile(repoFile, count));
    const began = Date.now();
    const server = await startSite({
      mock,
      env: {
        TENANTS_FILE: file,
        PUBLISHING_BASE_URL: proxy.url,
        PUBLISHING_PUBLIC_PER_MINUTE: '1000000',
      },
    });
    const startMs = Date.now() - began;
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const last = `t${count - 1}`;
      const first = await send(`${base}/${last}/`, { host: 'x.example' });
      if (first.status !== 200) throw new Error(`/${last}/: ${first.status}`);
      const rss = rssMb(server.pid);
      writeFileSync(file, tenantsFile(repoFile, count + 1));
      const asked = Date.now();
      process.kill(server.pid!, 'SIGHUP');
      while (!server.printed.includes('"event":"tenants.reloaded"')) await pause(5);
      const reloadMs = Date.now() - asked;
      rows.push({
        tenants: count,
        'start-up ms': startMs,
        'RSS MB': Math.round(rss),
        'reload ms': reloadMs,
        'unknown host 404 r/s': await rps(`${base}/`, (n) => `nobody-${n}.example`, 404),
        '/<id>/ rendered r/s': await rps(`${base}/${last}/`, (n) => `p${n}.example`, 200),
      });
    } finally {
      await server.stop();
    }
  }
  console.table(rows);
} finally {
  await proxy.close();
  await mock.close();
}
