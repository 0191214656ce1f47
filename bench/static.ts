/**
 * Static build of a 1,000-post tenant against the mock at its documented limits (240/min with the
 * tenant's read token, 60/min anonymous for e-paper): wall time ÷ the rate-limit floor of the calls
 * it needed at the share of the limits a build spends (90 %; target ≤ 1.15), calls per 100 posts,
 * the derived pictures (how many were made while it fetched), and the rebuild's upstream calls and
 * pictures made (target 0 each).
 *   BENCH_STATIC_POSTS=200 npm run bench   a quicker run (MOCK_POSTS otherwise, default 1000)
 *   BENCH_STATIC_KEEP=/tmp/copy            keeps both builds' copies there (`first/`, `rebuild/`)
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { startMock } from '../mock/index.ts';
import { settingDefaults } from '../src/lib/settings/schema.ts';
import { childEnvironment } from '../src/lib/settings/settings.ts';

// The documented limits are the settings' defaults: the mock enforces them, the floor divides by the
// share of them a build spends (`UPSTREAM_BUDGET_RATIO`, as the site).
const PUBLIC_PER_MINUTE = settingDefaults.PUBLISHING_PUBLIC_PER_MINUTE;
const TOKEN_PER_MINUTE = settingDefaults.PUBLISHING_TOKEN_PER_MINUTE;
const share = (limit: number) => Math.floor(limit * settingDefaults.UPSTREAM_BUDGET_RATIO);

const TENANT = 'daily-planet';
const TOKEN_ENV = 'BENCH_PUBLISHING_TOKEN';

interface Summary {
  upstreamCalls: number;
  reused: number;
  wallMs: number;
  fetchMs: number;
  waitedMs: number;
  pagesByType: Record<string, number>;
  pictures?: { written: number; reused: number; made: number; madeWhileFetching: number };
  pagesEarly?: { rendered: number; taken: number };
}

/** Seconds of CPU (user + system) `/usr/bin/time` wrote for a finished command. */
function cpuSecondsIn(file: string): number {
  const [user = 0, system = 0] = readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
  return user + system;
}

/**
 * The site build the static build needs (`astro build` into its cache, as `build:static` does), on
 * its own: a fixed cost that does not grow with posts, so the builds' CPU time is told apart from it.
 */
function buildSite(work: string): { cpuSeconds: number; wallMs: number } {
  const cpuFile = join(work, 'cpu-site.txt');
  const started = Date.now();
  const built = spawnSync(
    '/usr/bin/time',
    ['-f', '%U %S', '-o', cpuFile, process.execPath, 'node_modules/astro/bin/astro.mjs', 'build'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: childEnvironment({
        MASTHEAD_OUT_DIR: resolve(work, 'cache', 'server'),
        ASTRO_TELEMETRY_DISABLED: '1',
      }),
    },
  );
  if (built.status !== 0) throw new Error(`astro build exited with ${built.status}`);
  return { cpuSeconds: cpuSecondsIn(cpuFile), wallMs: Date.now() - started };
}

/** Clock ticks per second of `/proc/<pid>/stat` (Linux's USER_HZ). */
const TICKS = 100;

/**
 * CPU seconds used so far by process `root` and everything under it, the children it has waited
 * for included (`/proc`: utime, stime, cutime, cstime).
 */
function treeCpuSeconds(root: number): number {
  const stats = new Map<number, { parent: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
      stats.set(Number(name), { parent: Number(fields[1]), ticks });
    } catch {
      // Gone meanwhile.
    }
  }
  const inTree = (pid: number): boolean =>
    pid === root || (pid > 1 && inTree(stats.get(pid)?.parent ?? 0));
  let ticks = 0;
  for (const [pid, { ticks: own }] of stats) if (inTree(pid)) ticks += own;
  return ticks / TICKS;
}

function build(work: string, tenantsFile: string, token: string) {
  const summaryFile = join(work, `summary-${Date.now()}.json`);
  const args = [
    'scripts/build-static.ts',
    TENANT,
    '--tenants',
    tenantsFile,
    '--summary-json',
    summaryFile,
  ];
  args.push('--out', join(work, 'out'), '--cache', join(work, 'cache'));
  args.push('--skip-server-build');
  // CPU time of the build and everything it waits for (site build, rendering server, sharp): on a
  // shared machine a fairer figure than wall time.
  const cpuFile = join(work, `cpu-${Date.now()}.txt`);
  const child = spawn('/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, [TOKEN_ENV]: token, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  // The CPU used so far, each second: how much of it came while the build still fetched.
  const started = Date.now();
  const samples: { ms: number; cpu: number }[] = [];
  const sampler = setInterval(() => {
    if (child.pid) samples.push({ ms: Date.now() - started, cpu: treeCpuSeconds(child.pid) });
  }, 1000);
  return new Promise<Summary & { cpuSeconds: number; cpuWhileFetching: number }>(
    (resolve, reject) => {
      child.on('exit', (code) => {
        clearInterval(sampler);
        if (code !== 0) return reject(new Error(`build:static exited with ${code}`));
        const summary = (JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary[])[0] as Summary;
        const fetchEnd = samples.find(({ ms }) => ms >= summary.fetchMs);
        resolve({
          ...summary,
          cpuSeconds: cpuSecondsIn(cpuFile),
          cpuWhileFetching: fetchEnd?.cpu ?? 0,
        });
      });
    },
  );
}

export async function run() {
  const posts = Number(process.env['BENCH_STATIC_POSTS'] ?? process.env['MOCK_POSTS'] ?? 1000);
  const mock = await startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    postsPerTenant: posts,
    limits: { publicPerMinute: PUBLIC_PER_MINUTE, tokenPerMinute: TOKEN_PER_MINUTE },
  });
  mkdirSync('.cache', { recursive: true });
  const work = mkdtempSync(join('.cache', 'static-bench-'));
  try {
    // A reader's token stands for the tenant's read token (`publishing.tokenEnv`).
    const login = await fetch(`${mock.publishingUrl}/auth/login`, {
      method: 'POST',
      headers: {
        'X-Tenant': TENANT,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({ email: 'reader@masthead.test', password: 'masthead-demo' }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const file = JSON.parse(readFileSync('tenants.json', 'utf8')) as {
      tenants: { id: string; publishing: Record<string, unknown> }[];
    };
    for (const tenant of file.tenants) {
      tenant.publishing['baseUrl'] = mock.publishingUrl;
      if (tenant.id === TENANT) tenant.publishing['tokenEnv'] = TOKEN_ENV;
    }
    const tenantsFile = join(work, 'tenants.json');
    writeFileSync(tenantsFile, JSON.stringify(file));
    await fetch(`${mock.controlUrl}/stats`, { method: 'DELETE' });

    const site = buildSite(work);
    const first = await build(work, tenantsFile, token);
    const keep = process.env['BENCH_STATIC_KEEP'];
    if (keep) cpSync(join(work, 'out', TENANT), join(keep, 'first'), { recursive: true });
    const stats = (await (await fetch(`${mock.controlUrl}/stats`)).json()) as {
      publishing: { total: number; routes: Record<string, number> };
    };
    // E-paper is read anonymously (60/min), everything else with the token (240/min), in parallel.
    const anonymous = Object.entries(stats.publishing.routes)
      .filter(([route]) => route.startsWith('GET /epaper') || route.startsWith('POST /auth'))
      .reduce((sum, [, count]) => sum + count, 0);
    const withToken = stats.publishing.total - anonymous;
    const floorMs =
      Math.max(withToken / share(TOKEN_PER_MINUTE), anonymous / share(PUBLIC_PER_MINUTE)) * 60_000;
    const second = await build(work, tenantsFile, token);
    if (keep) cpSync(join(work, 'out', TENANT), join(keep, 'rebuild'), { recursive: true });
    const published = first.pagesByType['posts'] ?? 0;
    const result = {
      posts: published,
      upstreamCalls: first.upstreamCalls,
      callsPer100Posts: Math.round((first.upstreamCalls / Math.max(1, published)) * 100 * 10) / 10,
      wallSeconds: Math.round(first.wallMs / 1000),
      fetchSeconds: Math.round(first.fetchMs / 1000),
      floorSeconds: Math.round(floorMs / 1000),
      wallOverFloor: Math.round((first.wallMs / floorMs) * 100) / 100,
      fetchOverFloor: Math.round((first.fetchMs / floorMs) * 100) / 100,
      rebuildUpstreamCalls: second.upstreamCalls,
      rebuildSeconds: Math.round(second.wallMs / 1000),
      siteBuildSeconds: Math.round(site.wallMs / 1000),
      siteBuildCpuSeconds: Math.round(site.cpuSeconds),
      cpuSeconds: Math.round(first.cpuSeconds),
      cpuSecondsWhileFetching: Math.round(first.cpuWhileFetching),
      // The least an idle two-core machine could take, over the floor: every CPU second beside
      // the fetch on both cores. Only a bound (the crawl can only start when the fetch is done).
      cpuOverFloorTwoCores: Math.round((first.cpuSeconds / 2 / (floorMs / 1000)) * 100) / 100,
      cpuMsPerPicture: Math.round(
        (first.cpuSeconds * 1000) / Math.max(1, first.pictures?.made ?? 0),
      ),
      rebuildCpuSeconds: Math.round(second.cpuSeconds),
      loadAverage: loadavg().map((load) => Math.round(load * 10) / 10),
      pictures: first.pictures?.written,
      picturesPerPost:
        Math.round(((first.pictures?.written ?? 0) / Math.max(1, published)) * 10) / 10,
      picturesMadeWhileFetching: first.pictures?.madeWhileFetching,
      pagesRenderedWhileFetching: first.pagesEarly?.rendered,
      pagesTakenFromThoseIntoTheCopy: first.pagesEarly?.taken,
      rebuildPicturesMade: second.pictures?.made,
    };
    return {
      ...result,
      ok:
        result.wallOverFloor <= 1.15 &&
        result.rebuildUpstreamCalls === 0 &&
        result.rebuildPicturesMade === 0,
    };
  } finally {
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
