/**
 * Image bench (issue 21), against the contract mock in photo mode (3000×2000 covers, 2200×3000 page
 * scans): bytes on the wire of each page's first view on a phone, the reader's first view and its
 * thumbnail strip, cold transform times, a warm image's throughput, and the server's peak memory
 * under 50 concurrent cold transforms. Own build and free ports.
 *
 *   node bench/images.ts [--lighthouse] [--skip-build] [--cold-only] [--camera-only]
 *
 * `--cold-only`: only the first reader of a new edition (its page image while its 25 thumbnails are
 * queued, the cache empty) and the 50 concurrent cold pictures. First, in processes of their own, the
 * peak memory of converting one camera photo of up to 100 MP (bench/images-camera.ts; `--camera-only`:
 * that alone).
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from '@playwright/test';
import autocannon from 'autocannon';
import { startMock } from '../mock/index.ts';
import { demoEnv } from '../scripts/demo-env.mjs';
import { transformImage } from '../src/lib/images/transform.ts';
import { startNginx } from '../tests/deploy/stack.ts';
import { freePort } from '../tests/fixtures/net.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const OUT = './dist-bench-images';
const TENANT = 'daily-planet';
const args = new Set(process.argv.slice(2));
/** The targets: each page's first view, the reader's first view, its thumbnail strip. */
const PAGE_BUDGET = 1.5 * 1024 * 1024;
const THUMBS_BUDGET = 300 * 1024;
/** Rounds of the warm-image comparison. */
const ROUNDS = 5;

execFileSync(process.execPath, ['bench/images-camera.ts'], { cwd: root, stdio: 'inherit' });
if (args.has('--camera-only')) process.exit(0);

if (!args.has('--skip-build')) {
  execFileSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    cwd: root,
    env: { ...process.env, MASTHEAD_OUT_DIR: OUT, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const mock = await startMock({
  publishingPort: 0,
  lodgingPort: 0,
  controlPort: 0,
  media: 'photos',
  limits: { publicPerMinute: 0, tokenPerMinute: 0, lodgingPerMinute: 0 },
});
const port = await freePort();
const origin = `http://${TENANT}.localhost:${port}`;
// Node cannot resolve `*.localhost`: its own requests take the tenant's path prefix instead.
const direct = `http://127.0.0.1:${port}/${TENANT}`;
const cacheDir = mkdtempSync(join(tmpdir(), 'masthead-bench-images-'));
// `npm start`'s server (scripts/start.mjs: the adapter's handler behind a small HTTP server).
const server: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: root,
  env: {
    ...process.env,
    ...demoEnv(),
    MASTHEAD_OUT_DIR: OUT,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLISHING_BASE_URL: mock.publishingUrl,
    LODGING_BASE_URL: mock.lodgingUrl,
    PUBLISHING_PUBLIC_PER_MINUTE: '6000',
    IMAGE_CACHE_DIR: cacheDir,
    IMAGE_SIGNING_SECRET: 'bench-images-signing-secret',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

const api = async <T>(path: string): Promise<T> =>
  (
    (await (
      await fetch(`${mock.publishingUrl}${path}`, { headers: { 'X-Tenant': TENANT } })
    ).json()) as {
      data: T;
    }
  ).data;

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/favicon.svg`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error('server did not start');
}

/** The server's resident memory now and its peak so far (VmRSS, VmHWM), in MB. */
function rss(): { current: number; peak: number } {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const mb = (field: string) =>
    Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { current: mb('VmRSS'), peak: mb('VmHWM') };
}

/** Waits for `path` (a site path) and says how it went, in ms from `since`. */
async function timed(path: string, since: number): Promise<{ status: number; ms: number }> {
  const response = await fetch(`${direct}${path}`);
  await response.arrayBuffer();
  return { status: response.status, ms: Math.round(performance.now() - since) };
}

/** The mock draws a photo on its first request: drawn beforehand, the transforms are what is measured. */
async function drawSources(paths: string[]): Promise<void> {
  for (const path of paths) {
    const source = Buffer.from(path.split('/')[3] ?? '', 'base64url').toString();
    await (await fetch(source)).arrayBuffer();
  }
}

/**
 * The first reader of a new edition with the image cache empty (the LCP 5 s): the reader's
 * thumbnail strip asked at once (25 lazy thumbnails come in together once laid out), then the page
 * image a phone picks (AVIF at 800 px), as a spread's second page or a turn asks for one while the
 * strip is being made. Time until the page image is answered (the LCP's server part) and until all.
 */
async function coldEdition(slug: string) {
  const html = await (await fetch(`${direct}/epaper/${slug}`)).text();
  const thumbs = [...new Set(html.match(/\/_img\/u\/[\w-]+\/160\/[\w-]+\.webp/g) ?? [])].slice(
    0,
    25,
  );
  // The first 800 px AVIF in the page is the page shown (its <picture> comes before the strip's).
  const pageImage = html.match(/\/_img\/u\/[\w-]+\/800\/[\w-]+\.avif/)?.[0];
  if (!pageImage || thumbs.length === 0) throw new Error(`no reader images in /epaper/${slug}`);
  await drawSources([...thumbs, pageImage]);
  const started = performance.now();
  const strip = thumbs.map((path) => timed(path, started));
  const page = await timed(pageImage, started);
  const done = await Promise.all(strip);
  // For scale: another page of it alone, its source already fetched (the transform by itself).
  const second = html.match(/\/_img\/u\/[\w-]+\/800\/[\w-]+\.avif/g)?.find((p) => p !== pageImage);
  const alone = second ? await timed(second, performance.now()) : undefined;
  const statuses: Record<string, number> = {};
  for (const { status } of [...done, page]) statuses[status] = (statuses[status] ?? 0) + 1;
  return {
    thumbnails: thumbs.length,
    pageImageMs: page.ms,
    pageImageStatus: page.status,
    thumbnailsBeforePage: done.filter((d) => d.ms < page.ms).length,
    anotherPageAloneMs: alone?.ms,
    allMs: Math.max(page.ms, ...done.map((d) => d.ms)),
    statuses: JSON.stringify(statuses),
  };
}

/**
 * 50 concurrent cold transforms of different sources, the mock's photos warm (drawn beforehand, so
 * the source fetches are quick and the transforms are what is measured): statuses, memory.
 */
async function coldBurst() {
  const slugs = (await api<{ slug: string }[]>('/categories')).map((c) => c.slug);
  const listings = await Promise.all(
    slugs
      .flatMap((slug) => [`/categories/${slug}`, `/categories/${slug}/page/2`])
      .map(async (path) => (await fetch(`${direct}${path}`)).text()),
  );
  const many = [
    ...new Set(listings.join('').match(/\/_img\/u\/[\w-]+\/1200\/[\w-]+\.avif/g) ?? []),
  ].slice(0, 50);
  await drawSources(many);
  const rssBefore = rss().current;
  const statuses: Record<string, number> = {};
  let sampling = true;
  let peak = rssBefore;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rss().current);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  await Promise.all(
    many.map(async (path) => {
      const { status } = await timed(path, started);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }),
  );
  sampling = false;
  await sampler;
  const memory = {
    requests: many.length,
    statuses: JSON.stringify(statuses),
    refused: many.length - (statuses[200] ?? 0),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    rssBeforeMB: rssBefore,
    rssPeakMB: peak,
    processPeakMB: rss().peak,
  };
  console.log('\nConcurrent cold transforms');
  console.table(memory);
  return memory;
}

/**
 * Lighthouse mobile's performance score, LCP and bytes of one page (its report in bench/results).
 * Not synchronous: the mock runs in this process and must answer the server meanwhile.
 */
async function runLighthouse(name: string, path: string): Promise<Record<string, unknown>> {
  const outDir = join(root, 'bench/results');
  mkdirSync(outDir, { recursive: true });
  const output = join(outDir, `lighthouse-photos-${name.replaceAll(' ', '-')}.json`);
  try {
    await promisify(execFile)(
      process.execPath,
      [
        'node_modules/lighthouse/cli/index.js',
        `${origin}${path}`,
        '--quiet',
        '--output=json',
        `--output-path=${output}`,
        '--only-categories=performance',
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
      ],
      { cwd: root, env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' } },
    );
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0] };
  }
  const report = JSON.parse(readFileSync(output, 'utf8')) as {
    categories: { performance: { score: number } };
    audits: Record<string, { numericValue?: number }>;
  };
  return {
    performance: Math.round(report.categories.performance.score * 100),
    lcpMs: Math.round(report.audits['largest-contentful-paint']?.numericValue ?? 0),
    totalKB: Math.round((report.audits['total-byte-weight']?.numericValue ?? 0) / 1024),
  };
}

try {
  await waitForServer();
  const freeEditions = (await api<{ slug: string; is_free: boolean }[]>('/epaper?per_page=50'))
    .filter((e) => e.is_free)
    .map((e) => e.slug);
  // Not the edition the first views below open (the first free one): its images are still cold.
  const edition = await coldEdition(freeEditions.at(-1)!);
  console.log('\nFirst reader of a new edition, image cache empty (25 thumbnails, then the page)');
  console.table(edition);
  if (args.has('--cold-only')) {
    const memory = await coldBurst();
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(
      join(root, 'bench/results/images-cold.json'),
      `${JSON.stringify({ edition, memory }, null, 2)}\n`,
    );
    server.kill('SIGTERM');
    await mock.close();
    process.exit(0);
  }
  const posts = await api<{ slug: string; cover_image_url: string | null }[]>('/posts?per_page=20');
  const category = (await api<{ slug: string }[]>('/categories'))[0]!;
  const free = (await api<{ slug: string; is_free: boolean }[]>('/epaper?per_page=50')).find(
    (e) => e.is_free,
  )!;
  const post = posts.find((p) => p.cover_image_url)!;
  const pages = {
    home: '/',
    post: `/posts/${post.slug}`,
    category: `/categories/${category.slug}`,
    epaper: '/epaper',
    reader: `/epaper/${free.slug}`,
  };

  // First view on a phone (Lighthouse's mobile: 412×823 at 1.75): every byte over the wire.
  const browser = await chromium.launch({
    executablePath: process.env['CHROME_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const weights: Record<
    string,
    { kB: number; images: number; imageKB: number; thumbsKB?: number }
  > = {};
  for (const [name, path] of Object.entries(pages)) {
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
    });
    const page = await context.newPage();
    const sizes: { url: string; bytes: number }[] = [];
    page.on('requestfinished', (request) => {
      void request.sizes().then((s) => {
        sizes.push({ url: request.url(), bytes: s.responseBodySize + s.responseHeadersSize });
      });
    });
    await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(300);
    const total = sizes.reduce((sum, s) => sum + s.bytes, 0);
    const images = sizes.filter((s) => s.url.includes('/_img/'));
    const thumbs = images.filter((s) => /\/_img\/[^ ]*\/(160|320)\//.test(s.url));
    weights[name] = {
      kB: Math.round(total / 1024),
      images: images.length,
      imageKB: Math.round(images.reduce((sum, s) => sum + s.bytes, 0) / 1024),
      ...(name === 'reader'
        ? { thumbsKB: Math.round(thumbs.reduce((sum, s) => sum + s.bytes, 0) / 1024) }
        : {}),
    };
    await context.close();
  }
  await browser.close();
  console.log('\nFirst view on a phone (412×823 @1.75), mock in photo mode');
  console.table(weights);

  // Cold transforms, in process: originals fetched first, then decode + resize + encode, one sharp
  // thread as on the server. Formats alternate, so a burst of load hits both alike.
  const html = await (await fetch(`${direct}/categories/${category.slug}`)).text();
  const covers = (await api<{ cover_image_url: string | null }[]>('/posts?per_page=50&page=2'))
    .map((p) => p.cover_image_url)
    .filter((url): url is string => url !== null)
    .slice(0, 5);
  const scans = (await api<{ pages: { image_url: string }[] }>(`/epaper/${free.slug}`)).pages
    .slice(0, 5)
    .map((p) => p.image_url);
  const median = (list: number[]) =>
    Math.round(list.sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0);
  const transforms: Record<string, { ms: number; kB: number }> = {};
  const time = async (label: string, sources: string[], width: number) => {
    const runs: Record<string, { ms: number[]; bytes: number[] }> = {};
    for (const source of sources) {
      const original = Buffer.from(await (await fetch(source)).arrayBuffer());
      for (const format of ['avif', 'webp', 'jpeg'] as const) {
        const started = performance.now();
        const bytes = await transformImage(original, width, format, { maxPixels: 40_000_000 });
        const run = (runs[format] ??= { ms: [], bytes: [] });
        run.ms.push(performance.now() - started);
        run.bytes.push(bytes.byteLength);
      }
    }
    for (const [format, run] of Object.entries(runs)) {
      transforms[`${label} → ${width} ${format}`] = {
        ms: median(run.ms),
        kB: Math.round(median(run.bytes) / 1024),
      };
    }
  };
  await time('3000×2000 cover', covers, 800);
  for (const width of [800, 1200, 1600]) await time('2200×3000 page', scans, width);
  console.log('\nCold transforms (median of 5 sources, one sharp thread)');
  console.table(transforms);
  const cold = [...new Set(html.match(/\/_img\/u\/[\w-]+\/800\/[\w-]+\.(?:avif|webp)/g) ?? [])];

  // A warm derived image: `npm start`'s server against nginx serving the same file with the same
  // headers (one worker, sendfile), side by side: three alternating rounds each, 20 connections.
  const warmPath = cold[0]!;
  const warmUrl = `http://127.0.0.1:${port}${warmPath}`;
  const host = { host: `${TENANT}.localhost:${port}` };
  const first = await fetch(warmUrl, { headers: host });
  const warmBytes = Buffer.from(await first.arrayBuffer());
  // The site's middleware adds X-Frame-Options; the warm path of scripts/start.mjs does not.
  const again = await fetch(warmUrl, { headers: host });
  await again.arrayBuffer();
  const answeredBy = again.headers.has('x-frame-options') ? 'site handler' : 'start.mjs warm path';
  const fileDir = mkdtempSync(join(tmpdir(), 'masthead-bench-nginx-files-'));
  mkdirSync(join(fileDir, dirname(warmPath)), { recursive: true });
  writeFileSync(join(fileDir, warmPath), warmBytes);
  const nginx = await startNginx(
    (_dir, nginxPort) => `  types { image/avif avif; image/webp webp; image/jpeg jpg; }
  server {
    listen 127.0.0.1:${nginxPort};
    root ${fileDir};
    etag off;
    location / {
      add_header Cache-Control "${first.headers.get('cache-control')}";
      add_header X-Content-Type-Options nosniff;
      add_header X-Frame-Options DENY;
      add_header Referrer-Policy strict-origin-when-cross-origin;
    }
  }`,
  );
  // For scale: the least any Node server does, the same bytes from memory with the same headers.
  const barePort = await freePort();
  const bare = spawn(
    process.execPath,
    [
      '-e',
      `const bytes = require('fs').readFileSync(${JSON.stringify(join(fileDir, warmPath))});
       const headers = ${JSON.stringify(Object.fromEntries(first.headers))};
       require('http').createServer((req, res) => { res.writeHead(200, headers); res.end(bytes); })
         .listen(${barePort}, '127.0.0.1');`,
    ],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const urls = {
    masthead: warmUrl,
    nginx: `http://127.0.0.1:${nginx.port}${warmPath}`,
    bareNode: `http://127.0.0.1:${barePort}${warmPath}`,
  };
  const rounds: Record<keyof typeof urls, number[]> = { masthead: [], nginx: [], bareNode: [] };
  try {
    // Round 0 warms each side up (the JIT, the connections) and is not counted.
    for (let round = 0; round <= ROUNDS; round++) {
      for (const side of ['masthead', 'nginx', 'bareNode'] as const) {
        const run = await autocannon({
          url: urls[side],
          headers: host,
          connections: 20,
          duration: round === 0 ? 2 : 3,
        });
        if (run.errors + run.non2xx > 0) throw new Error(`${side}: ${run.non2xx} non-2xx answers`);
        if (round > 0) rounds[side].push(run.requests.average);
      }
    }
  } finally {
    await nginx.stop();
    bare.kill();
  }
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
  const ratioOf = (side: number[]) =>
    Number(
      side
        .map((rps, i) => rps / (rounds.nginx[i] ?? Infinity))
        .sort((a, b) => a - b)
        [Math.floor(side.length / 2)]?.toFixed(2),
    );
  const warmResult = {
    bytes: warmBytes.byteLength,
    answeredBy,
    rounds: JSON.stringify(Object.values(rounds).map((list) => list.map(Math.round))),
    mastheadRps: Math.round(sum(rounds.masthead) / ROUNDS),
    nginxRps: Math.round(sum(rounds.nginx) / ROUNDS),
    bareNodeRps: Math.round(sum(rounds.bareNode) / ROUNDS),
    // Each round's sides ran back to back: the median of the rounds' ratios leaves out the rounds
    // where other work on the machine hit one side more than the other.
    ratio: ratioOf(rounds.masthead),
    bareNodeRatio: ratioOf(rounds.bareNode),
  };
  console.log(
    '\nWarm derived image: npm start, nginx, a bare Node server (20 connections, 5 rounds of 3 s after a warm-up)',
  );
  console.table(warmResult);

  const memory = await coldBurst();

  let lighthouse: Record<string, unknown> | string = 'skipped (--lighthouse to run it)';
  if (args.has('--lighthouse')) {
    // The first reader of an edition nobody has opened (issue 38: LCP ≤ 2.5 s), on a server that
    // has run a while: an older free one, which neither the views above nor warming touched.
    lighthouse = {
      'cold edition': await runLighthouse('cold edition', `/epaper/${freeEditions.at(-2)!}`),
    };
    for (const [name, path] of Object.entries(pages)) {
      lighthouse[name] = await runLighthouse(name, path);
    }
    console.log('\nLighthouse mobile (13.5.0), photo mode');
    console.table(lighthouse);
  }

  const ok =
    Object.values(weights).every((w) => w.kB * 1024 <= PAGE_BUDGET) &&
    (weights['reader']?.thumbsKB ?? Infinity) * 1024 <= THUMBS_BUDGET;
  const result = { edition, weights, transforms, warm: warmResult, memory, lighthouse, ok };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/images.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nImages: ${ok ? 'targets met' : 'a target missed'} (bench/results/images.json)`);
  process.exitCode = ok ? 0 : 1;
} finally {
  server.kill('SIGTERM');
  await mock.close();
}
