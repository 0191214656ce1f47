/**
 * Reading-site bench: JavaScript shipped per page type (target 0), HTML weight of a post page, and
 * throughput of a warm-cache post page against a plain Astro page on the same server (target ≥ 0.9×);
 * optionally Lighthouse (mobile) on home, post, category and plans.
 *
 *   node bench/reading.ts [--no-lighthouse]
 *
 * Builds into dist-bench/ with a plain page injected, starts the contract mock on its default ports
 * (stop `npm run dev` first) and the built server on BENCH_PORT (4600).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { startMock } from '../mock/index.ts';
import { demoEnv } from '../scripts/demo-env.mjs';

const root = new URL('../', import.meta.url);
const PORT = Number(process.env['BENCH_PORT'] ?? 4600);
const TENANT = 'daily-planet';
const HOST = `${TENANT}.localhost:${PORT}`;
const ORIGIN = `http://127.0.0.1:${PORT}`;

export interface PageWeight {
  page: string;
  path: string;
  status: number;
  htmlBytes: number;
  htmlGzipBytes: number;
  scriptTags: number;
  jsBytes: number;
}

export interface ReadingBenchResult {
  pages: PageWeight[];
  postHtmlBytes: number;
  postHtmlGzipBytes: number;
  throughput: { postRps: number; plainRps: number; ratio: number; errors: number };
  lighthouse: Record<string, Record<string, number>> | string;
  ok: boolean;
}

/** GET with the tenant's Host header (fetch may not set `Host`, node:http may). */
function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${ORIGIN}${path}`, { headers: { host: HOST } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      })
      .on('error', reject);
  });
}

/** Executable JavaScript a page makes the browser load: inline and external scripts, module preloads. */
async function javascriptBytes(html: string): Promise<{ tags: number; bytes: number }> {
  let tags = 0;
  let bytes = 0;
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    if (/type=["']?application\/(ld\+)?json/i.test(attributes)) continue;
    tags += 1;
    const src = /\bsrc=["']([^"']+)["']/i.exec(attributes)?.[1];
    bytes += src ? (await get(new URL(src, ORIGIN).pathname)).body.length : (match[2] ?? '').length;
  }
  for (const match of html.matchAll(
    /<link\b[^>]*rel=["']modulepreload["'][^>]*href=["']([^"']+)["']/gi,
  )) {
    tags += 1;
    bytes += (await get(new URL(match[1] ?? '', ORIGIN).pathname)).body.length;
  }
  return { tags, bytes };
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
  paths: Record<string, string>,
): Promise<Record<string, Record<string, number>> | string> {
  const chrome = process.env['CHROME_PATH'] ?? '/usr/bin/chromium';
  if (!existsSync(chrome)) return `skipped: no Chromium at ${chrome}`;
  const scores: Record<string, Record<string, number>> = {};
  const outDir = new URL('bench/results/', root);
  mkdirSync(outDir, { recursive: true });
  for (const [name, path] of Object.entries(paths)) {
    const output = new URL(`lighthouse-${name}.json`, outDir);
    try {
      await runAsync(
        'npx',
        [
          '--yes',
          'lighthouse@13',
          `http://${HOST}${path}`,
          '--quiet',
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

/** The contract mock where tenants.json expects it; an already running one (e.g. `npm run mock`) is reused. */
async function mockOnDefaultPorts(): Promise<{ publishingUrl: string; close(): Promise<void> }> {
  const running = await fetch('http://127.0.0.1:4009/').then(
    (r) => r.ok,
    () => false,
  );
  if (running)
    return { publishingUrl: 'http://127.0.0.1:4010/api/v1', close: () => Promise.resolve() };
  return startMock({ publishingPort: 4010, lodgingPort: 4020, controlPort: 4009 });
}

function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist-bench/server/entry.mjs'], {
    cwd: root,
    env: { ...process.env, ...demoEnv(), HOST: '127.0.0.1', PORT: String(PORT) },
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
  execFileSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    cwd: root,
    env: {
      ...process.env,
      MASTHEAD_BENCH: '1',
      MASTHEAD_OUT_DIR: './dist-bench',
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The documented limits stay on: the warm-cache measurement must not need the upstream at all.
  const mock = await mockOnDefaultPorts();
  const server = await startServer();
  try {
    const tags = (await (
      await fetch(`${mock.publishingUrl}/tags`, { headers: { 'X-Tenant': TENANT } })
    ).json()) as {
      data: { slug: string }[];
    };
    const paths: Record<string, string> = {
      home: '/',
      post: '/posts/welcome-to-our-new-website',
      categories: '/categories',
      category: '/categories/news',
      tags: '/tags',
      tag: `/tags/${tags.data[0]?.slug ?? 'none'}`,
      search: '/search?q=city',
      plans: '/plans',
      plan: '/plans/digital',
      notFound: '/no-such-page',
    };
    const pages: PageWeight[] = [];
    for (const [page, path] of Object.entries(paths)) {
      const { status, body } = await get(path);
      const js = await javascriptBytes(body);
      pages.push({
        page,
        path,
        status,
        htmlBytes: Buffer.byteLength(body),
        htmlGzipBytes: gzipSync(body).length,
        scriptTags: js.tags,
        jsBytes: js.bytes,
      });
    }
    // Warm both, then alternate so background noise hits both sides alike.
    await measure(paths['post'] ?? '/', 4, 1);
    await measure('/bench/plain', 4, 1);
    const runs = [];
    for (let round = 0; round < 2; round += 1) {
      runs.push({
        post: await measure(paths['post'] ?? '/'),
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
        options.lighthouse === false
          ? 'skipped (--no-lighthouse)'
          : await lighthouse({
              home: paths['home'] ?? '/',
              post: paths['post'] ?? '/',
              category: paths['category'] ?? '/',
              plans: paths['plans'] ?? '/',
            }),
      ok: false,
    };
    result.ok =
      pages.every((p) => p.jsBytes === 0 && p.status === (p.page === 'notFound' ? 404 : 200)) &&
      result.throughput.ratio >= 0.9 &&
      errors === 0;
    return result;
  } finally {
    server.kill('SIGTERM');
    await mock.close();
  }
}

export function printReading(result: ReadingBenchResult): void {
  console.log('\nReading site: JavaScript per page type (target 0 bytes)');
  console.table(
    result.pages.map(({ page, status, htmlBytes, htmlGzipBytes, scriptTags, jsBytes }) => ({
      page,
      status,
      htmlBytes,
      htmlGzipBytes,
      scriptTags,
      jsBytes,
    })),
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run({ lighthouse: !process.argv.includes('--no-lighthouse') });
  printReading(result);
  mkdirSync(new URL('bench/results/', root), { recursive: true });
  writeFileSync(
    new URL('bench/results/reading.json', root),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  if (!result.ok) process.exitCode = 1;
}
