/**
 * Production delivery bench (issue 12), in one run on loopback:
 * - warm post page through the shipped edge config vs nginx serving the same HTML from a file
 *   (target ≥ 0.8×);
 * - `npm start` with compression vs without, for a browser that accepts brotli (target ≥ 0.8×);
 * - bytes on the wire for the post page (identity, gzip, brotli);
 * - upstream calls of two servers sharing Redis vs one server under the same load (target: the
 *   same, not twice).
 *
 *   node bench/delivery.ts
 *
 * Needs nginx and redis-server; uses wrk when installed (faster than the load it measures),
 * autocannon otherwise. Builds into dist-deploy/; every port is picked free on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import build from '../tests/deploy/build.ts';
import { send } from '../tests/deploy/http.ts';
import type { Service } from '../tests/deploy/processes.ts';
import {
  startDocumentedMock,
  startEdge,
  startNginx,
  startRedis,
  startSite,
} from '../tests/deploy/stack.ts';
import type { Mock } from '../tests/deploy/stack.ts';

const root = new URL('../', import.meta.url);
const HOST = 'daily-planet.localhost';
const POST = '/posts/welcome-to-our-new-website';
const BROWSER = 'gzip, deflate, br, zstd';
const WRK = '/usr/bin/wrk';
const DURATION_S = 4;
/** Distinct posts in the shared-store comparison: few enough that the budget never caps it. */
const POSTS = 10;

export interface DeliveryBenchResult {
  tool: 'wrk' | 'autocannon';
  edge: { edgeRps: number; fileRps: number; ratio: number };
  compression: { onRps: number; offRps: number; ratio: number };
  postBytes: { identity: number; gzip: number; br: number };
  sharedStore: {
    oneServerCalls: number;
    twoServersCalls: number;
    /** For reference: what each server's own cache costs (about twice). */
    twoServersWithoutRedisCalls: number;
    ratio: number;
  };
  ok: boolean;
}

/** Requests per second for `url` (Host and Accept-Encoding set), after a short warm-up. */
async function throughput(url: string, encoding: string): Promise<number> {
  const headers = { host: HOST, 'accept-encoding': encoding };
  if (existsSync(WRK)) {
    const args = (seconds: number) => [
      '-t2',
      '-c32',
      `-d${seconds}s`,
      '-H',
      `Host: ${HOST}`,
      ...(encoding ? ['-H', `Accept-Encoding: ${encoding}`] : []),
      url,
    ];
    await promisify(execFile)(WRK, args(1));
    const { stdout } = await promisify(execFile)(WRK, args(DURATION_S));
    const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1];
    if (/Non-2xx/.test(stdout)) throw new Error(`errors while measuring ${url}:\n${stdout}`);
    return Math.round(Number(rps));
  }
  await autocannon({ url, headers, connections: 32, duration: 1 });
  const result = await autocannon({ url, headers, connections: 32, duration: DURATION_S });
  if (result.non2xx + result.errors > 0) throw new Error(`errors while measuring ${url}`);
  return Math.round(result.requests.average);
}

/** Alternates the two measurements, three rounds, so background noise falls on both alike. */
async function compare(a: () => Promise<number>, b: () => Promise<number>) {
  const rounds = 3;
  let sumA = 0;
  let sumB = 0;
  for (let round = 0; round < rounds; round += 1) {
    sumA += await a();
    sumB += await b();
  }
  return {
    a: Math.round(sumA / rounds),
    b: Math.round(sumB / rounds),
    ratio: round2(sumA / sumB),
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

async function edgeVersusFile(mock: Mock, redisUrl: string) {
  const sites = [await startSite({ mock, redisUrl }), await startSite({ mock, redisUrl })];
  const edge = await startEdge(sites.map((site) => site.port));
  const edgeUrl = `http://127.0.0.1:${edge.port}${POST}`;
  const page = await send(edgeUrl, { host: HOST });
  const files = await startNginx((dir, port) => {
    mkdirSync(join(dir, 'www', 'posts'), { recursive: true });
    writeFileSync(join(dir, 'www', 'posts', 'welcome-to-our-new-website'), page.text);
    return `  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    default_type text/html;
  }`;
  });
  try {
    for (let i = 0; i < 3; i += 1) await send(edgeUrl, { host: HOST });
    const measured = await compare(
      () => throughput(edgeUrl, ''),
      () => throughput(`http://127.0.0.1:${files.port}${POST}`, ''),
    );
    return { edgeRps: measured.a, fileRps: measured.b, ratio: measured.ratio };
  } finally {
    await files.stop();
    await edge.stop();
    await Promise.all(sites.map((site) => site.stop()));
  }
}

async function compressionOnOff(mock: Mock) {
  const on = await startSite({ mock });
  const off = await startSite({ mock, env: { COMPRESSION: 'false' } });
  try {
    const onUrl = `http://127.0.0.1:${on.port}${POST}`;
    const offUrl = `http://127.0.0.1:${off.port}${POST}`;
    const bytes = async (encoding: string) =>
      (await send(onUrl, { host: HOST, headers: { 'Accept-Encoding': encoding } })).raw.length;
    const postBytes = {
      identity: await bytes(''),
      gzip: await bytes('gzip'),
      br: await bytes('br'),
    };
    const measured = await compare(
      () => throughput(onUrl, BROWSER),
      () => throughput(offUrl, BROWSER),
    );
    return {
      compression: { onRps: measured.a, offRps: measured.b, ratio: measured.ratio },
      postBytes,
    };
  } finally {
    await on.stop();
    await off.stop();
  }
}

/** Publishing calls the mock received for POSTS distinct posts, each read twice by `sites`. */
async function upstreamCalls(
  mock: Mock,
  redis: Service,
  servers: number,
  shared = true,
): Promise<number> {
  await send(`${mock.controlUrl}/reset`, { method: 'POST' });
  const client = new Redis(`redis://127.0.0.1:${redis.port}`);
  await client.flushdb();
  client.disconnect();
  const redisUrl = `redis://127.0.0.1:${redis.port}`;
  const sites = await Promise.all(
    Array.from({ length: servers }, () =>
      startSite({ mock, redisUrl: shared ? redisUrl : undefined }),
    ),
  );
  try {
    await send(`${mock.controlUrl}/stats`, { method: 'DELETE' });
    const slugs = [...(mock.state.publishing.sites.get('daily-planet')?.posts ?? [])]
      .filter((post) => post.status === 'published')
      .slice(0, POSTS)
      .map((post) => post.slug);
    for (let read = 0; read < 2; read += 1) {
      for (const [index, slug] of slugs.entries()) {
        const site = sites[(index + read) % sites.length]!;
        await send(`http://127.0.0.1:${site.port}/posts/${slug}`, { host: HOST });
      }
    }
    const stats = JSON.parse((await send(`${mock.controlUrl}/stats`)).text) as {
      publishing: { total: number };
    };
    return stats.publishing.total;
  } finally {
    await Promise.all(sites.map((site) => site.stop()));
  }
}

export async function run(): Promise<DeliveryBenchResult> {
  build();
  const mock = await startDocumentedMock();
  const redis = await startRedis();
  try {
    const redisUrl = `redis://127.0.0.1:${redis.port}`;
    const edge = await edgeVersusFile(mock, redisUrl);
    const { compression, postBytes } = await compressionOnOff(mock);
    const oneServerCalls = await upstreamCalls(mock, redis, 1);
    const twoServersCalls = await upstreamCalls(mock, redis, 2);
    const twoServersWithoutRedisCalls = await upstreamCalls(mock, redis, 2, false);
    const sharedStore = {
      oneServerCalls,
      twoServersCalls,
      twoServersWithoutRedisCalls,
      ratio: round2(twoServersCalls / oneServerCalls),
    };
    return {
      tool: existsSync(WRK) ? 'wrk' : 'autocannon',
      edge,
      compression,
      postBytes,
      sharedStore,
      ok: edge.ratio >= 0.8 && compression.ratio >= 0.8 && sharedStore.ratio <= 1.1,
    };
  } finally {
    await redis.stop();
    await mock.close();
  }
}

export function printDelivery(result: DeliveryBenchResult): void {
  console.log(`\nProduction delivery (load: ${result.tool}, ${DURATION_S} s per run, loopback)`);
  const { edge, compression, postBytes, sharedStore } = result;
  console.log(
    `Warm post via the edge: ${edge.edgeRps} req/s; nginx serving the same HTML from a file: ${edge.fileRps} req/s; ratio ${edge.ratio} (target ≥ 0.8)`,
  );
  console.log(
    `npm start, browser encodings: compression on ${compression.onRps} req/s, off ${compression.offRps} req/s; ratio ${compression.ratio} (target ≥ 0.8)`,
  );
  console.log(
    `Post page on the wire: ${postBytes.identity} B plain, ${postBytes.gzip} B gzip, ${postBytes.br} B brotli`,
  );
  console.log(
    `Upstream calls, ${POSTS} posts read twice: one server ${sharedStore.oneServerCalls}, two servers on Redis ${sharedStore.twoServersCalls} (without Redis ${sharedStore.twoServersWithoutRedisCalls}); ratio ${sharedStore.ratio} (target ≤ 1.1, not 2)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  printDelivery(result);
  mkdirSync(new URL('bench/results/', root), { recursive: true });
  writeFileSync(
    new URL('bench/results/delivery.json', root),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  if (!result.ok) process.exitCode = 1;
}
