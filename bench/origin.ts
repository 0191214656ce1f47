/**
 * The origin server near the machine's limit (issue 23), in one run on loopback:
 * - `npm start` serving a warm post (brotli) vs nginx serving a file with the same body and headers;
 * - post and home rendered (data cached, page not: every request another host of the tenant's
 *   wildcard, so the route cache misses) vs a bare Astro 7 + `@astrojs/node` project rendering the
 *   same bytes (./origin-bare.ts, generated into a temporary directory);
 *   parts kept rendered from the last render of the same data (src/lib/render/) are reused, as after
 *   a route-cache entry ends with its data unchanged; `--nothing-kept` renders every part;
 * - response header bytes;
 * - cold upstream round trips per page type with 150 ms upstream latency (counted from a request log);
 * - RSS of the server under a render load (60 s; `--seconds N`) and RSS per tenant at 3/30/300 tenants
 *   (`--no-tenants` skips the three builds that takes; `--tenants-only` runs only those).
 *
 *   node bench/origin.ts [--seconds 60] [--rounds 5] [--nothing-kept] [--no-tenants] [--delivery-only] [--tenants-only] [--memory-only] [--render-only] [--allocator] [--profile DIR]
 *
 * `--profile DIR`: the server rendering against the bare project writes a CPU profile (Node's
 * `--cpu-prof`) into DIR when it stops.
 *
 * `--allocator`: `MALLOC_MMAP_THRESHOLD_=16384` against `npm start`'s dynamic threshold: plain and
 * brotli renders, CPU per request, RSS; `--seconds` for each server's memory run.
 *
 * Throughput pairs are measured alternately (5 rounds each; the ratio is the median of the rounds')
 * so background load falls on both sides; compare the ratios, not the absolute figures. Builds into dist-origin/.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startMock } from '../mock/index.ts';
import { coldPages, headBytes, measureColdPages } from '../tests/deploy/cold-pages.ts';
import { send } from '../tests/deploy/http.ts';
import type { Service } from '../tests/deploy/processes.ts';
import { startDocumentedMock, startNginx, startSite, type Mock } from '../tests/deploy/stack.ts';
import { startBareAstro, type BareProject } from './origin-bare.ts';
import { startTenantProxy, tenantsFile } from './origin-tenants.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const OUT_DIR = join(root, 'dist-origin');
const HOST = 'daily-planet.localhost';
const CONNECTIONS = 20;
const SECONDS = 4;
const args = process.argv.slice(2);
const loadSeconds = Number(args[args.indexOf('--seconds') + 1]) || 60;

const round2 = (value: number) => Math.round(value * 100) / 100;
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

function build(outDir = OUT_DIR): void {
  execFileSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    cwd: root,
    env: {
      ...process.env,
      MASTHEAD_BENCH: 'true',
      MASTHEAD_OUT_DIR: outDir,
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Requests per second; `host(n)` gives every request its own Host when set. */
async function rps(
  url: string,
  options: { headers?: Record<string, string>; host?: (n: number) => string; cpu?: CpuTally } = {},
): Promise<number> {
  let n = 0;
  const { host } = options;
  const headers = { host: HOST, ...options.headers };
  const requests = host
    ? [{ setupRequest: (req: object) => ({ ...req, headers: { ...headers, host: host(n++) } }) }]
    : undefined;
  const once = (duration: number) =>
    autocannon({
      url,
      headers,
      connections: CONNECTIONS,
      duration,
      ...(requests ? { requests } : {}),
    });
  await once(1);
  const cpuBefore = options.cpu && cpuMs(options.cpu.pid);
  const result = await once(SECONDS);
  if (result.non2xx + result.errors > 0) throw new Error(`errors while measuring ${url}`);
  if (options.cpu && cpuBefore !== undefined) {
    options.cpu.perRequest.push((cpuMs(options.cpu.pid) - cpuBefore) / result.requests.total);
  }
  return result.requests.average;
}

/** CPU time (user and system, all threads) a process has used, in milliseconds. */
function cpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid ?? 'self'}/stat`, 'utf8')
    .split(') ')[1]!
    .split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A server's CPU time per request over the rounds (`rps` adds one figure per round). */
interface CpuTally {
  pid: number | undefined;
  perRequest: number[];
}

const rounds = Number(args[args.indexOf('--rounds') + 1]) || 5;

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Alternates two measurements (`--rounds`, 5 by default): background load falls on both alike.
 * The ratio is the median of the rounds' own ratios, so one disturbed round does not move it.
 */
async function compare(a: () => Promise<number>, b: () => Promise<number>) {
  const as: number[] = [];
  const bs: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    as.push(await a());
    bs.push(await b());
  }
  const ratios = as.map((value, index) => value / bs[index]!);
  return {
    a: Math.round(median(as)),
    b: Math.round(median(bs)),
    ratio: round2(median(ratios)),
    /** The lowest and highest of the rounds' ratios. */
    spread: `${round2(Math.min(...ratios))}–${round2(Math.max(...ratios))}`,
  };
}

const unlimited = () =>
  startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    host: '127.0.0.1',
    limits: { publicPerMinute: 0, tokenPerMinute: 0, lodgingPerMinute: 0 },
  });

/** The allocator setting `npm start` had before issue 36 (`--allocator`). */
const THRESHOLD = { MALLOC_MMAP_THRESHOLD_: '16384' };

const site = (mock: Mock, env: Record<string, string> = {}) =>
  startSite({ mock, env: { MASTHEAD_OUT_DIR: OUT_DIR, ...env } });

async function postPath(mock: Mock): Promise<string> {
  const pages = await coldPages(mock);
  return pages.find((page) => page.type === 'post')?.path ?? '/';
}

/** `npm start`'s warm post vs nginx sending the same bytes and headers from a file. */
async function startVersusNginx(mock: Mock) {
  const server = await site(mock);
  const path = await postPath(mock);
  const url = `http://127.0.0.1:${server.port}${path}`;
  const br = { 'accept-encoding': 'br' };
  for (let i = 0; i < 3; i += 1) await send(url, { host: HOST, headers: br });
  const page = await send(url, { host: HOST, headers: br });
  const skip = new Set(['date', 'connection', 'content-length', 'keep-alive', 'content-type']);
  const nginx = await startNginx((dir, port) => {
    mkdirSync(join(dir, 'www'), { recursive: true });
    writeFileSync(join(dir, 'www', 'post'), page.raw);
    const headers = Object.entries(page.headers)
      .filter(([name]) => !skip.has(name))
      .map(([name, value]) => `      add_header ${name} ${JSON.stringify(String(value))};`)
      .join('\n');
    return `  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    location = ${path} {
      default_type ${JSON.stringify(String(page.headers['content-type'] ?? 'text/html'))};
${headers}
      try_files /post =404;
    }
  }`;
  });
  try {
    const measured = await compare(
      () => rps(url, { headers: br }),
      () => rps(`http://127.0.0.1:${nginx.port}${path}`, { headers: br }),
    );
    return {
      npmStartRps: measured.a,
      nginxFileRps: measured.b,
      ratio: measured.ratio,
      bodyBytesBrotli: page.raw.length,
      headerBytes: headBytes(page.headers),
    };
  } finally {
    await nginx.stop();
    await server.stop();
  }
}

/**
 * Renders with the data cached and the page not (another host each time) vs a bare Astro 7 +
 * `@astrojs/node` project rendering the same bytes (./origin-bare.ts), both asked alike (no
 * `Accept-Encoding`: the bare project compresses nothing), alternated rounds.
 */
async function renderVersusBare(mock: Mock) {
  const profile = args.includes('--profile') ? args[args.indexOf('--profile') + 1] : undefined;
  const server = await site(mock, {
    // `--nothing-kept`: every render renders every part (RENDER_CACHE_MAX_BYTES=0), as after a change.
    ...(args.includes('--nothing-kept') && { RENDER_CACHE_MAX_BYTES: '0' }),
    ...(profile && { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profile}` }),
  });
  const path = await postPath(mock);
  const base = `http://127.0.0.1:${server.port}`;
  const fresh = (n: number) => `r${n}.dailyplanet.example.com`;
  const html = async (p: string) => {
    const reply = await send(`${base}${p}`, { host: fresh(-1) });
    if (reply.headers['x-astro-cache'] !== 'MISS') throw new Error(`${p}: not a route-cache miss`);
    return reply.text;
  };
  let bare: BareProject | undefined;
  try {
    for (const warm of [path, '/']) await send(`${base}${warm}`, { host: HOST });
    const pages = { post: await html(path), home: await html('/') };
    bare = await startBareAstro(pages);
    const bareBase = `http://127.0.0.1:${bare.port}`;
    const versusBare = async (page: string, name: keyof typeof pages) => {
      const ours: CpuTally = { pid: server.pid, perRequest: [] };
      const theirs: CpuTally = { pid: bare?.pid, perRequest: [] };
      const measured = await compare(
        () => rps(`${base}${page}`, { host: fresh, cpu: ours }),
        () => rps(`${bareBase}/${name}`, { host: fresh, cpu: theirs }),
      );
      // CPU per request moves less with the neighbours' load than requests per second do.
      const ms = (tally: CpuTally) => round2(median(tally.perRequest));
      return { ...measured, cpuMs: ms(ours), bareCpuMs: ms(theirs) };
    };
    const post = await versusBare(path, 'post');
    const home = await versusBare('/', 'home');
    return {
      postRenderRps: post.a,
      bareRps: post.b,
      postRatio: post.ratio,
      postSpread: post.spread,
      postCpuMs: post.cpuMs,
      bareCpuMs: post.bareCpuMs,
      homeRenderRps: home.a,
      bareRpsWithHome: home.b,
      homeRatio: home.ratio,
      homeSpread: home.spread,
      homeCpuMs: home.cpuMs,
      bareHomeCpuMs: home.bareCpuMs,
      postHtmlBytes: Buffer.byteLength(pages.post),
      homeHtmlBytes: Buffer.byteLength(pages.home),
    };
  } finally {
    await bare?.stop();
    await server.stop();
  }
}

/**
 * `MALLOC_MMAP_THRESHOLD_=16384` (which `npm start` set until issue 36) against glibc's own,
 * dynamic threshold (`npm start` now, with `MALLOC_ARENA_MAX=2`): plain and brotli post renders (a new host each request) on
 * two servers side by side, alternated, with each one's CPU per request and peak RSS over the
 * rounds; then RSS under `seconds` of plain renders for each (the memory target's measure).
 */
async function allocatorSetting(mock: Mock) {
  const withIt = await site(mock, THRESHOLD);
  const without = await site(mock);
  const path = await postPath(mock);
  const url = (server: Service) => `http://127.0.0.1:${server.port}${path}`;
  const fresh = (n: number) => `a${n}.dailyplanet.example.com`;
  const peaks = new Map<Service, number>();
  const timer = setInterval(() => {
    for (const server of [withIt, without]) {
      peaks.set(server, Math.max(peaks.get(server) ?? 0, rssOf(server.pid)));
    }
  }, 250);
  const renders = async (headers: Record<string, string>) => {
    for (const server of [withIt, without]) await send(url(server), { host: HOST, headers });
    const cpuWith: CpuTally = { pid: withIt.pid, perRequest: [] };
    const cpuWithout: CpuTally = { pid: without.pid, perRequest: [] };
    const measured = await compare(
      () => rps(url(withIt), { headers, host: fresh, cpu: cpuWith }),
      () => rps(url(without), { headers, host: fresh, cpu: cpuWithout }),
    );
    return {
      rendersWith: measured.a,
      rendersWithout: measured.b,
      ratio: measured.ratio,
      spread: measured.spread,
      cpuMsWith: round2(median(cpuWith.perRequest)),
      cpuMsWithout: round2(median(cpuWithout.perRequest)),
    };
  };
  try {
    const plain = await renders({});
    const brotli = await renders({ 'accept-encoding': 'br' });
    return {
      plain,
      brotli,
      peakRssMbWith: mb(peaks.get(withIt) ?? 0),
      peakRssMbWithout: mb(peaks.get(without) ?? 0),
    };
  } finally {
    clearInterval(timer);
    await withIt.stop();
    await without.stop();
  }
}

function rssOf(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid ?? 'self'}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** RSS of `npm start` while it renders posts (a new host each request) for `seconds`. */
async function rssUnderLoad(mock: Mock, seconds: number, env: Record<string, string> = {}) {
  const server: Service = await site(mock, env);
  const path = await postPath(mock);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    await send(`${base}${path}`, { host: HOST });
    const idle = rssOf(server.pid);
    let peak = idle;
    const timer = setInterval(() => (peak = Math.max(peak, rssOf(server.pid))), 500);
    let n = 0;
    const result = await autocannon({
      url: `${base}${path}`,
      connections: CONNECTIONS,
      duration: seconds,
      requests: [
        {
          setupRequest: (req: object) => ({
            ...req,
            headers: { host: `m${n++}.dailyplanet.example.com` },
          }),
        },
      ],
    });
    clearInterval(timer);
    const end = rssOf(server.pid);
    return {
      seconds,
      renders: result.requests.total,
      errors: result.errors + result.non2xx,
      idleRssMb: mb(idle),
      peakRssMb: mb(peak),
      endRssMb: mb(end),
    };
  } finally {
    await server.stop();
  }
}

/**
 * RSS after a home and a post view of every tenant, for a build with `count` tenants, each server
 * warmed with the same number of renders first.
 */
async function rssPerTenant(mock: Mock, counts: number[]) {
  const path = await postPath(mock);
  const proxy = await startTenantProxy(mock.publishingUrl);
  const original = join(root, 'tenants.json');
  const saved = `${original}.bench-saved`;
  copyFileSync(original, saved);
  const rows: { tenants: number; rssMb: number; buildSeconds: number }[] = [];
  const warmRenders = 2 * Math.max(...counts);
  try {
    for (const count of counts) {
      writeFileSync(original, tenantsFile(readFileSync(saved, 'utf8'), count));
      const started = Date.now();
      const outDir = join(root, `dist-origin-${count}`);
      build(outDir);
      const buildSeconds = Math.round((Date.now() - started) / 100) / 10;
      // Every tenant's first views are cold: the site's upstream budget must not be what is measured.
      const server = await site(mock, {
        MASTHEAD_OUT_DIR: outDir,
        PUBLISHING_BASE_URL: proxy.url,
        PUBLISHING_PUBLIC_PER_MINUTE: '1000000',
      });
      try {
        // The same render work on every server first (a private page, never cached): RSS then
        // holds a young generation grown alike, so the difference between counts is what the
        // tenants keep, not how many renders it took to view them.
        for (let i = 0; i < warmRenders; i += 1) {
          const reply = await send(`http://127.0.0.1:${server.port}/login`, {
            host: 't0.localhost',
          });
          if (reply.status !== 200) throw new Error(`warm-up /login: ${reply.status}`);
        }
        for (let i = 0; i < count; i += 1) {
          const host = `t${i}.localhost`;
          for (const page of ['/', path]) {
            const reply = await send(`http://127.0.0.1:${server.port}${page}`, { host });
            if (reply.status !== 200) throw new Error(`${host}${page}: ${reply.status}`);
          }
        }
        rows.push({ tenants: count, rssMb: mb(rssOf(server.pid)), buildSeconds });
      } finally {
        await server.stop();
      }
    }
  } finally {
    copyFileSync(saved, original);
    unlinkSync(saved);
    await proxy.close();
  }
  const first = rows[0]!;
  const last = rows.at(-1)!;
  return {
    rows,
    mbPerTenant: round2((last.rssMb - first.rssMb) / (last.tenants - first.tenants)),
  };
}

export async function run() {
  build();
  const mock = await unlimited();
  const latency = await startDocumentedMock();
  try {
    if (args.includes('--tenants-only')) {
      const tenants = await rssPerTenant(mock, [3, 30, 300]);
      console.table(tenants.rows);
      return { tenants, ok: tenants.mbPerTenant <= 0.3 };
    }
    if (args.includes('--memory-only')) {
      const memory = await rssUnderLoad(mock, loadSeconds);
      console.table([memory]);
      return { memory, ok: memory.peakRssMb <= 300 };
    }
    if (args.includes('--allocator')) {
      const renders = await allocatorSetting(mock);
      console.table([renders.plain, renders.brotli]);
      const memory = [
        await rssUnderLoad(mock, loadSeconds, THRESHOLD),
        await rssUnderLoad(mock, loadSeconds),
      ];
      console.table(memory);
      return {
        allocator: { ...renders, memoryWith: memory[0], memoryWithout: memory[1] },
        ok: true,
      };
    }
    if (args.includes('--render-only')) {
      const render = await renderVersusBare(mock);
      console.table([render]);
      return { render, ok: render.postRatio >= 0.3 && render.homeRatio >= 0.5 };
    }
    const delivery = await startVersusNginx(mock);
    console.table([delivery]);
    if (args.includes('--delivery-only')) return { delivery, ok: delivery.ratio >= 0.6 };
    const render = await renderVersusBare(mock);
    console.table([render]);
    await fetch(`${latency.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'publishing', latencyMs: 150 }),
    });
    const cold = await measureColdPages(latency, await coldPages(latency), {
      MASTHEAD_OUT_DIR: OUT_DIR,
    });
    console.table(cold);
    const memory = await rssUnderLoad(mock, loadSeconds);
    console.table([memory]);
    const tenants = args.includes('--no-tenants') ? null : await rssPerTenant(mock, [3, 30, 300]);
    if (tenants) console.table(tenants.rows);
    const result = { delivery, render, cold, memory, tenants };
    const ok =
      delivery.ratio >= 0.6 &&
      render.postRatio >= 0.3 &&
      render.homeRatio >= 0.5 &&
      cold.every((page) => page.roundTrips <= (page.type === 'post' ? 2 : 1)) &&
      cold.every((page) => page.headerBytes <= 800) &&
      memory.peakRssMb <= 300 &&
      (!tenants || tenants.mbPerTenant <= 0.3);
    return { ...result, ok };
  } finally {
    await mock.close();
    await latency.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/origin.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (!result.ok) process.exitCode = 1;
}
