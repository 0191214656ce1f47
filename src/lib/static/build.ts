import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { childEnvironment, settings } from '../settings/settings.ts';
import { staticOrigin } from '../tenants/origin.ts';
import type { Tenant } from '../tenants/schema.ts';
import { createMetrics } from '../upstream/metrics.ts';
import { createUpstream } from '../upstream/runtime.ts';
import { errorMessage } from '../content/records.ts';
import { ask, crawl, isPagePath, sitePath, type CrawlResult, type RenderedPage } from './crawl.ts';
import { createDiskCache, writeWhole } from './disk-cache.ts';
import { fetchSnapshot, StaticBuildError, type FetchProgress } from './fetch.ts';
import { SNAPSHOT_ENV } from './mode.ts';
import type { PacingBudget } from './pacer.ts';
import { createPictureMaker, type PictureMaker } from './pictures.ts';
import { parseReads, sameAnswers, type Snapshot, type SnapshotRead } from './snapshot.ts';

interface StaticBuildOptions {
  tenant: Tenant;
  /** The tenants file `tenant` comes from: the rendering server reads it too (`TENANTS_FILE`). */
  tenantsFile: string;
  /** The built server (`astro build` output: `client/` and `server/`). */
  serverDir: string;
  /** Folder of all copies; this tenant's goes to `<outRoot>/<id>/`. */
  outRoot: string;
  /** Folder of the upstream answers; this tenant's are in `<cacheRoot>/<id>/`. */
  cacheRoot: string;
  freshSeconds: number;
  /** One per run: tenants of one upstream share its per-IP limit. */
  budget: PacingBudget;
  /** Called with a one-line status while running (a terminal rewrites it in place). */
  status?: (line: string) => void;
}

/** Why a tenant cannot be built as plain files, or `null` when it can. */
export function staticProblem(tenant: Tenant): string | null {
  return staticOrigin(tenant)
    ? null
    : `tenant "${tenant.id}" cannot be built statically: its first host is a wildcard; set static.origin in tenants.json`;
}

/** What kind of page a site path is, for the summary. */
export function pageType(path: string): string {
  if (path === '/' || /^\/page\/\d+$/.test(path)) return 'home';
  if (/\.(xml|txt)$/.test(path)) return 'feeds and sitemaps';
  if (path === '/404') return '404';
  const [, first = ''] = path.split('/');
  const renamed: Record<string, string> = { epaper: 'e-paper', stay: 'booking' };
  const named = ['posts', 'categories', 'tags', 'plans', 'streams', 'search'].includes(first);
  return renamed[first] ?? (named ? first : 'other');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A failed fetch's message with its cause's (`fetch failed: other side closed`). */
const failedBecause = (error: unknown) =>
  [error, error instanceof Error && error.cause].filter(Boolean).map(errorMessage).join(': ');

/** Starts the built server for one tenant in static mode and waits until it answers. */
export async function startRenderer(
  serverDir: string,
  tenant: Tenant,
  tenantsFile: string,
  snapshotFile: string,
  images: { dir: string; secret: string },
) {
  const tenantId = tenant.id;
  const port = await freePort();
  // The memory settings of `npm start` (docs/deploy.md, "Exhaust memory"): making pictures, a
  // renderer without them grew to 2.2 GB.
  const memory = ['--max-semi-space-size=8', '--max-old-space-size=512'];
  const child = spawn(process.execPath, [...memory, join(serverDir, 'server', 'entry.mjs')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: childEnvironment({
      MALLOC_ARENA_MAX: '2',
      // Its warnings and errors, not a line per request: the build's failure shows the last ones.
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      MASTHEAD_TENANT: tenantId,
      TENANTS_FILE: resolve(tenantsFile),
      // The API the snapshot came from, whatever PUBLISHING_BASE_URL says in this environment: its
      // origin is where the image route may take the pictures from.
      PUBLISHING_BASE_URL: tenant.publishing.baseUrl,
      [SNAPSHOT_ENV]: snapshotFile,
      // Every renderer of every build signs and caches pictures alike: the same address names the
      // same picture, and a picture made once is found again in the image cache.
      IMAGE_CACHE_DIR: images.dir,
      IMAGE_SIGNING_SECRET: images.secret,
      // A build has the machine to itself: one transform more than cores keeps every core busy
      // while another waits for its source or its answer (1,000 posts: 1.26× → 1.03× the floor).
      IMAGE_TRANSFORMS: String(availableParallelism() + 1),
    }),
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const closed = new Promise((resolve) => child.once('close', resolve));
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (ended()) {
      throw new StaticBuildError(`${tenantId}: the rendering server stopped: ${stderr.trim()}`);
    }
    try {
      const res = await fetch(`${url}/favicon.svg`);
      await res.body?.cancel();
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (tries > 200) {
      // Not left running (holding its memory) after the build has given up.
      child.kill('SIGKILL');
      await closed;
      throw new StaticBuildError(
        `${tenantId}: the rendering server did not start: ${stderr.trim()}`,
      );
    }
    await sleep(50);
  }
  return {
    url,
    /**
     * Why the crawl failed on `error`: how the server ended (or that it still runs) and its last
     * output, once its output is all read (a server that is crashing gets a second to end).
     */
    async failure(error: unknown): Promise<StaticBuildError> {
      await Promise.race([closed, sleep(1000)]);
      const end = child.exitCode ?? child.signalCode;
      const state = end === null ? 'still runs' : `stopped (${end})`;
      const output = stderr.trim() ? `; its last output:\n${stderr.trim()}` : '';
      return new StaticBuildError(
        `${tenantId}: ${failedBecause(error)}; the rendering server ${state}${output}`,
      );
    },
    /** It ended by itself (crashed, or killed for its memory). */
    ended,
    stop: () =>
      new Promise<void>((resolve) => {
        if (ended()) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function folderSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

function fetchStatus(tenantId: string, p: FetchProgress, startedAt: number): string {
  const elapsed = Date.now() - startedAt;
  const left = Math.max(0, p.planned - p.made);
  const eta = p.made > 0 ? (elapsed / p.made) * left : 0;
  return `${tenantId}: upstream ${p.made}/${p.planned} calls, ${p.reused} reused, waited ${seconds(p.waitedMs)} for the budget, ~${seconds(eta)} left`;
}

/**
 * The image signing key of the build's rendering servers: `IMAGE_SIGNING_SECRET` when set, else one
 * kept in the cache folder, so a rebuild names each picture as the last one did.
 */
function imageSigningSecret(cacheRoot: string): string {
  const configured = settings().IMAGE_SIGNING_SECRET;
  if (configured) return configured;
  const file = join(cacheRoot, 'image-signing-secret');
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 16) return stored;
  } catch {
    // None yet.
  }
  const made = randomBytes(32).toString('hex');
  mkdirSync(cacheRoot, { recursive: true });
  writeFileSync(file, made, { mode: 0o600 });
  return made;
}

type Renderer = Awaited<ReturnType<typeof startRenderer>>;

/** A page rendered while the build still fetched, with the snapshot reads it made. */
type EarlyPage = RenderedPage & { reads: SnapshotRead[] };

/**
 * While the build waits for the upstream, renders each post and edition as soon as it has arrived
 * (from the snapshot so far), and once the lists are in the seeds and the pages they link to, so
 * their pictures are made in the waits. A page whose snapshot reads the whole snapshot answers
 * alike (`sameAnswers`) is the copy's page: the crawl does not render it again.
 */
function earlyPages(
  start: () => Promise<Renderer>,
  snapshotFile: string,
  pictures: PictureMaker,
  seeds: readonly string[],
) {
  const readsLog = `${snapshotFile}.reads`;
  let renderer: Promise<Renderer> | undefined;
  const pending: string[] = [];
  const pages = new Map<string, EarlyPage>();
  let taken = 0;
  let latest: Snapshot | undefined;
  let stopped = false;
  // Posts and editions are rendered as they arrive, not when a seed links to them.
  const follow = (path: string, from: string) => {
    if (path.startsWith('/_img/')) return true;
    const edition = /^\/epaper\/[^/]+/.exec(from)?.[0];
    if (edition) return path.startsWith(`${edition}/`);
    return seeds.includes(from) && isPagePath(path) && !/^\/(?:posts|epaper)\//.test(path);
  };
  const loop = (async () => {
    while (!stopped) {
      if (!latest || pending.length === 0) {
        await sleep(100);
        continue;
      }
      const wrote = Date.now();
      // What has arrived up to this snapshot (taken together), and the edition pages these name.
      const batch = pending.splice(0);
      writeWhole(snapshotFile, JSON.stringify({ ...latest, readsLog }));
      // No server, no head start: the crawl says why the rendering server cannot start.
      const server = await (renderer ??= start()).catch(() => undefined);
      if (!server) return;
      pictures.useServer(server.url);
      // One page at a time: the reads noted are the page's own. Only a head start: a page that
      // fails is the copy's crawl's to render.
      await crawl({
        render: (path) => {
          if (stopped) throw new StaticBuildError('stopped');
          writeFileSync(readsLog, '');
          return ask(server.url)(path);
        },
        siteOrigin: '',
        seeds: batch,
        follow,
        concurrency: 1,
        onPage: (page) =>
          pages.set(page.path, { ...page, reads: parseReads(readFileSync(readsLog, 'utf8')) }),
        onPicture: (path) => pictures.add(path),
      }).catch(() => undefined);
      // At most one snapshot every two seconds: each is the whole snapshot so far.
      await sleep(Math.max(0, 2000 - (Date.now() - wrote)));
    }
  })();
  return {
    update(partial: Snapshot, newPaths: readonly string[]) {
      // The first update has the lists: what the seeds show is known.
      if (!latest) pending.push(...seeds);
      latest = partial;
      // Spelled as the crawl spells the links it follows (`/posts/caf%C3%A9`), so it finds them.
      pending.push(...newPaths.map(sitePath));
    },
    counts: () => ({ rendered: pages.size, taken }),
    /**
     * Stops rendering, lets the pictures being made finish and stops the server: the copy's crawl
     * has a server of its own, whose route cache never held a page of a partial snapshot.
     */
    async stop(): Promise<void> {
      stopped = true;
      await loop;
      await pictures.hold();
      const server = await renderer?.catch(() => undefined);
      await server?.stop();
      rmSync(readsLog, { force: true });
    },
    /** The early page at `path` when the whole `snapshot` renders it alike. */
    async take(snapshot: Snapshot, path: string): Promise<Response | undefined> {
      const page = pages.get(path);
      // No read noted is no proof (an answer from the route cache reads nothing).
      if (!page || page.reads.length === 0 || !(await sameAnswers(snapshot, page.reads))) return;
      taken += 1;
      return new Response(page.body, { status: page.status, headers: page.headers });
    },
  };
}

/** The build's upstream: no shared cache (its answers live on disk), patient retries, the pacer. */
function buildUpstream(budget: PacingBudget) {
  const { UPSTREAM_TIMEOUT_MS, UPSTREAM_BODY_MAX_BYTES } = settings();
  return {
    ...createUpstream({
      metrics: createMetrics({ log: () => undefined }),
      http: {
        timeoutMs: UPSTREAM_TIMEOUT_MS,
        maxBodyBytes: UPSTREAM_BODY_MAX_BYTES,
        // A build may wait for the upstream's window; a page render may not.
        maxRetries: 5,
        retryAfterCapMs: 120_000,
        retryRateLimited: true,
        backoffBaseMs: 500,
        backoffMaxMs: 10_000,
      },
    }),
    budget,
  };
}

/** Where the crawl starts: every page no link is sure to reach. */
function crawlSeeds(tenant: Tenant): string[] {
  // The sitemap index lists the news sitemap when there is one (a site without posts has none: 404).
  const feeds = ['/robots.txt', '/rss.xml', '/sitemap.xml'];
  const seeds = ['/', '/404', ...feeds, '/search', '/categories', '/tags', '/plans'];
  if (tenant.features.epaper) seeds.push('/epaper');
  if (tenant.features.streams) seeds.push('/streams');
  return seeds;
}

/** One tenant: fetch (resumable), render every public page, index for search, swap into place. */
export async function buildStaticTenant(options: StaticBuildOptions) {
  const { tenant, serverDir, outRoot, cacheRoot } = options;
  const status = options.status ?? (() => undefined);
  const started = Date.now();
  const problem = staticProblem(tenant);
  if (problem) throw new StaticBuildError(problem);
  const origin = staticOrigin(tenant) ?? '';

  const upstream = buildUpstream(options.budget);
  const cacheDir = join(cacheRoot, tenant.id);
  const snapshotFile = join(cacheDir, 'snapshot.json');
  const outDir = join(outRoot, tenant.id);
  const workDir = join(outRoot, `.${tenant.id}.partial`);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  // Derived pictures of every tenant, kept between builds (keyed by source and transform).
  const images = { dir: resolve(cacheRoot, 'images'), secret: imageSigningSecret(cacheRoot) };
  const pictures = createPictureMaker({
    outDir: workDir,
    storeDir: images.dir,
    secret: images.secret,
  });
  const render = () => startRenderer(serverDir, tenant, options.tenantsFile, snapshotFile, images);
  const early = earlyPages(render, snapshotFile, pictures, crawlSeeds(tenant));

  const fetched = await fetchSnapshot({
    tenant,
    cache: createDiskCache(join(cacheDir, 'answers')),
    freshMs: options.freshSeconds * 1000,
    upstream,
    onProgress: (p) => status(fetchStatus(tenant.id, p, started)),
    onPartial: (partial, newPaths) => early.update(partial, newPaths),
  }).finally(() => early.stop());
  const fetchMs = Date.now() - started;
  const madeWhileFetching = pictures.counts.made;
  writeWhole(snapshotFile, JSON.stringify(fetched.snapshot));
  const renderer = await render();
  let result: CrawlResult;
  try {
    pictures.useServer(renderer.url);
    // A picture the early server could not make (it died, or was busy to the last try) gets this one.
    pictures.retryFailed();
    result = await crawl({
      render: async (path) => (await early.take(fetched.snapshot, path)) ?? ask(renderer.url)(path),
      siteOrigin: origin,
      outDir: workDir,
      seeds: crawlSeeds(tenant),
      onPage: (_page, written, queued) =>
        status(
          `${tenant.id}: ${written} pages written, ${queued} queued; pictures: ${pictures.queued.size} named, ${pictures.counts.made + pictures.counts.reused} written`,
        ),
      onPicture: (path) => pictures.add(path),
    });
    status(`${tenant.id}: making the last pictures`);
    await pictures.drain();
    // Pictures asked of a server that died failed for its reason, which the failure tells.
    if (renderer.ended()) throw new StaticBuildError('pictures could not be made');
  } catch (error) {
    throw await renderer.failure(error);
  } finally {
    await renderer.stop();
  }
  // Named only by a page seen while fetching that the copy shows otherwise (a list moved on).
  pictures.prune(result.pictures);
  const broken = [
    ...result.broken,
    ...pictures.counts.failed.filter((line) => result.pictures.has(line.split(':')[0] ?? '')),
  ];
  if (broken.length > 0) {
    throw new StaticBuildError(
      `${tenant.id}: ${broken.length} page(s) could not be written:\n${broken.map((line) => `  - ${line}`).join('\n')}`,
    );
  }
  cpSync(join(serverDir, 'client'), workDir, { recursive: true });
  status(`${tenant.id}: indexing for search`);
  await indexForSearch(workDir);
  rmSync(outDir, { recursive: true, force: true });
  renameSync(workDir, outDir);

  const pagesByType: Record<string, number> = {};
  for (const path of result.written) {
    const type = pageType(path);
    pagesByType[type] = (pagesByType[type] ?? 0) + 1;
  }
  const size = folderSize(outDir);
  return {
    tenant: tenant.id,
    outDir,
    pagesByType,
    files: size.files,
    bytes: size.bytes,
    upstreamCalls: fetched.progress.made,
    reused: fetched.progress.reused,
    waitedMs: fetched.progress.waitedMs,
    fetchMs,
    wallMs: Date.now() - started,
    pagesEarly: early.counts(),
    deadLinks: result.dead,
    pictures: {
      written: result.pictures.size,
      reused: pictures.counts.reused,
      made: pictures.counts.made,
      madeWhileFetching,
      blank: pictures.counts.blank,
    },
  };
}

export type StaticBuildSummary = Awaited<ReturnType<typeof buildStaticTenant>>;

/** Pagefind's index of the written pages (only post bodies are marked for it). */
async function indexForSearch(dir: string): Promise<void> {
  const pagefind = await import('pagefind');
  const failure = (errors: string[]) => new StaticBuildError(`search index: ${errors.join('; ')}`);
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw failure(errors);
  try {
    const added = await index.addDirectory({ path: dir });
    if (added.errors.length > 0) throw failure(added.errors);
    const written = await index.writeFiles({ outputPath: join(dir, 'pagefind') });
    if (written.errors.length > 0) throw failure(written.errors);
  } finally {
    await index.deleteIndex();
    await pagefind.close();
  }
}

/** `12 posts, 3 categories, …` for the summary. */
export function describeSummary(summary: StaticBuildSummary): string {
  const pages = Object.entries(summary.pagesByType)
    .sort(([, a], [, b]) => b - a)
    .map(([type, count]) => `${count} ${type}`)
    .join(', ');
  const total = Object.values(summary.pagesByType).reduce((sum, count) => sum + count, 0);
  return [
    `${summary.tenant} → ${summary.outDir}`,
    `  pages: ${total} (${pages})`,
    `  upstream: ${summary.upstreamCalls} calls, ${summary.reused} answers reused from the cache, ${seconds(summary.waitedMs)} waiting for the budget`,
    `  pictures: ${summary.pictures.written} (${summary.pictures.reused} from the image cache, ${summary.pictures.made} made, ${summary.pictures.madeWhileFetching} of them while fetching; ${summary.pictures.blank} blank for a failed source)`,
    `  early: ${summary.pagesEarly.rendered} pages rendered while fetching, ${summary.pagesEarly.taken} of them taken into the copy`,
    `  time: ${seconds(summary.wallMs)} (fetching ${seconds(summary.fetchMs)}); output: ${(summary.bytes / 1024 / 1024).toFixed(1)} MB in ${summary.files} files`,
    ...summary.deadLinks.map((link) => `  dead link, answered by the 404 page: ${link}`),
  ].join('\n');
}
