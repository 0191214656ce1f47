/**
 * Reading-site bench: JavaScript shipped per page type (target 0 on reading pages; a post page's live comment count up to 2 KB), HTML weight of every
 * page type, and throughput of a warm-cache post page against a plain Astro page on the same server
 * (target ≥ 0.9×); optionally Lighthouse (mobile) on every page type (target 100).
 *
 *   node bench/reading.ts [--no-lighthouse]
 *   node bench/reading.ts --lighthouse-only=home,search   Lighthouse on those page types alone
 *
 * Builds into dist-bench/ with a plain page injected, starts the contract mock and the built server on
 * the bench's own ports (bench/pages.ts: 4700, mock 4709/4710/4720), clear of the e2e suite's.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { demoEnv } from '../scripts/demo-env.mjs';
import {
  BENCH_PORT as PORT,
  benchMock,
  pageTypes,
  pageWeights,
  upstreamEnv,
  weightsOk,
  type PageType,
  type PageWeight,
} from './pages.ts';

const root = new URL('../', import.meta.url);
const TENANT = 'daily-planet';
const HOST = `${TENANT}.localhost:${PORT}`;
const ORIGIN = `http://127.0.0.1:${PORT}`;

export interface ReadingBenchResult {
  pages: PageWeight[];
  postHtmlBytes: number;
  postHtmlGzipBytes: number;
  throughput: { postRps: number; plainRps: number; ratio: number; errors: number };
  lighthouse: Record<string, Record<string, number>> | string;
  ok: boolean;
}

async function measure(
  path: string,
  connections = 20,
  duration = 6,
): Promise<{ rps: number; errors: number }> {
  const result = await autocannon({
    url: `${ORIGIN}${path}`,
    headers: { host: HOST },
    connections,
    duration,
  });
  return { rps: result.requests.average, errors: result.errors + result.non2xx };
}

/** Runs a command without blocking this process (the in-process mock must keep answering). */
function runAsync(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} exited with ${code}`));
    });
  });
}

async function lighthouse(
  pages: PageType[],
): Promise<Record<string, Record<string, number>> | string> {
  const chrome = process.env['CHROME_PATH'] ?? '/usr/bin/chromium';
  if (!existsSync(chrome)) return `skipped: no Chromium at ${chrome}`;
  const scores: Record<string, Record<string, number>> = {};
  const outDir = new URL('bench/results/', root);
  mkdirSync(outDir, { recursive: true });
  for (const { page: name, tenant, path, expectedStatus } of pages) {
    const output = new URL(`lighthouse-${name}.json`, outDir);
    try {
      await runAsync(
        process.execPath,
        [
          new URL('node_modules/lighthouse/cli/index.js', root).pathname,
          `http://${tenant}.localhost:${PORT}${path}`,
          '--quiet',
          // The 404 page is measured as a page too (Lighthouse stops at an error status otherwise).
          ...(expectedStatus === 200 ? [] : ['--ignore-status-code']),
          '--output=json',
          `--output-path=${output.pathname}`,
          '--only-categories=performance,accessibility,best-practices,seo',
          '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking',
        ],
        { ...process.env, CHROME_PATH: chrome },
        180_000,
      );
      const report = JSON.parse(readFileSync(output, 'utf8')) as {
        categories: Record<string, { score: number | null }>;
      };
      scores[name] = Object.fromEntries(
        Object.entries(report.categories).map(([key, value]) => [
          key,
          Math.round((value.score ?? 0) * 100),
        ]),
      );
    } catch (error) {
      scores[name] = { error: -1 };
      console.error(`lighthouse ${name} failed: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return scores;
}

/** The bench's own build (dist-bench/), with the plain comparison page. */
function buildBench(): void {
  execFileSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    cwd: root,
    env: {
      ...process.env,
      MASTHEAD_BENCH: 'true',
      MASTHEAD_OUT_DIR: './dist-bench',
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist-bench/server/entry.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      ...demoEnv(),
      ...upstreamEnv,
      // The bench's browser and load tool are one visitor on loopback: the whole budget.
      UPSTREAM_VISITOR_SHARE: '1',
      HOST: '127.0.0.1',
      PORT: String(PORT),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 20_000;
    const poll = () => {
      fetch(`${ORIGIN}/favicon.svg`)
        .then(() => resolve(child))
        .catch(() =>
          Date.now() > deadline ? reject(new Error('server did not start')) : setTimeout(poll, 200),
        );
    };
    poll();
  });
}

export async function run(options: { lighthouse?: boolean } = {}): Promise<ReadingBenchResult> {
  buildBench();
  // The documented limits stay on: the warm-cache measurement must not need the upstream at all.
  const mock = await benchMock();
  const server = await startServer();
  try {
    const types = await pageTypes();
    const pages = await pageWeights(PORT, types);
    const postPath = types.find((p) => p.page === 'post')?.path ?? '/';
    // Warm both, then alternate so background noise hits both sides alike.
    await measure(postPath, 4, 1);
    await measure('/bench/plain', 4, 1);
    const runs = [];
    for (let round = 0; round < 2; round += 1) {
      runs.push({
        post: await measure(postPath),
        plain: await measure('/bench/plain'),
      });
    }
    const postRps = runs.reduce((sum, r) => sum + r.post.rps, 0) / runs.length;
    const plainRps = runs.reduce((sum, r) => sum + r.plain.rps, 0) / runs.length;
    const errors = runs.reduce((sum, r) => sum + r.post.errors + r.plain.errors, 0);
    const post = pages.find((p) => p.page === 'post');
    const result: ReadingBenchResult = {
      pages,
      postHtmlBytes: post?.htmlBytes ?? 0,
      postHtmlGzipBytes: post?.htmlGzipBytes ?? 0,
      throughput: {
        postRps: Math.round(postRps),
        plainRps: Math.round(plainRps),
        ratio: Math.round((postRps / plainRps) * 100) / 100,
        errors,
      },
      lighthouse:
        options.lighthouse === false ? 'skipped (--no-lighthouse)' : await lighthouse(types),
      ok: false,
    };
    result.ok = weightsOk(pages) && result.throughput.ratio >= 0.9 && errors === 0;
    return result;
  } finally {
    server.kill('SIGTERM');
    await mock.close();
  }
}

export function printReading(result: ReadingBenchResult): void {
  console.log(
    '\nHTML and JavaScript per page type (target 0 JS bytes on reading pages; post pages: the live comment count, up to 2 KB)',
  );
  console.table(
    result.pages.map(
      ({ page, reading, status, htmlBytes, htmlGzipBytes, scriptTags, jsBytes }) => ({
        page,
        reading,
        status,
        htmlBytes,
        htmlGzipBytes,
        scriptTags,
        jsBytes,
      }),
    ),
  );
  console.log(`Post page HTML: ${result.postHtmlBytes} B (${result.postHtmlGzipBytes} B gzipped)`);
  const t = result.throughput;
  console.log(
    `Warm post page: ${t.postRps} req/s; plain Astro page: ${t.plainRps} req/s; ratio ${t.ratio} (target ≥ 0.9); errors ${t.errors}`,
  );
  console.log('Lighthouse (mobile; target 100 each):');
  if (typeof result.lighthouse === 'string') console.log(`  ${result.lighthouse}`);
  else console.table(result.lighthouse);
}

/** Lighthouse alone, on the named page types (bench/pages.ts), with the same build, mock and server. */
export async function lighthouseOnly(names: readonly string[]) {
  buildBench();
  const mock = await benchMock();
  const server = await startServer();
  try {
    const types = (await pageTypes()).filter((type) => names.includes(type.page));
    return await lighthouse(types);
  } finally {
    server.kill('SIGTERM');
    await mock.close();
  }
}

const only = process.argv.find((arg) => arg.startsWith('--lighthouse-only='));
if (import.meta.url === `file://${process.argv[1]}` && only) {
  console.table(await lighthouseOnly(only.slice('--lighthouse-only='.length).split(',')));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run({ lighthouse: !process.argv.includes('--no-lighthouse') });
  printReading(result);
  mkdirSync(new URL('bench/results/', root), { recursive: true });
  writeFileSync(
    new URL('bench/results/reading.json', root),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  if (!result.ok) process.exitCode = 1;
}
