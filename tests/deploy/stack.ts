import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '../../mock/index.ts';
import { demoEnv } from '../../scripts/demo-env.mjs';
import { send } from './http.ts';
import { freePort, Service } from './processes.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Its own build (tests/deploy/build.ts), or the one `npm test` made for every suite (E2E_BUILT, package.json). */
export const OUT_DIR = resolve(root, process.env['E2E_BUILT'] ?? 'dist-deploy');
export const NGINX = process.env['NGINX'] ?? '/usr/sbin/nginx';
/** Debian's libnginx-mod-http-cache-purge, which the shipped config's `/_edge_purge` needs. */
export const PURGE_MODULE = '/usr/lib/nginx/modules/ngx_http_cache_purge_module.so';
export const REDIS_SERVER = process.env['REDIS_SERVER'] ?? '/usr/bin/redis-server';
export const STATUS_TOKEN = 'deploy-suite-status-token-0123456789abcdef';
export const METRICS_TOKEN = 'deploy-suite-metrics-token-0123456789abcdef';
export const PROMETHEUS = process.env['PROMETHEUS'] ?? '/usr/bin/prometheus';

export type Mock = Awaited<ReturnType<typeof startMock>>;

/** The mock at its documented limits: 60 public/min per IP, 240 per token, 60 lodging. */
export function startDocumentedMock(): Promise<Mock> {
  return startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    host: '127.0.0.1',
    limits: { publicPerMinute: 60, tokenPerMinute: 240, lodgingPerMinute: 60 },
  });
}

export async function startRedis(): Promise<Service> {
  const port = await freePort();
  const redis = new Service('redis-server', port, REDIS_SERVER, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  await redis.start();
  return redis;
}

export interface SiteOptions {
  mock: Mock;
  redisUrl?: string | undefined;
  env?: Record<string, string>;
}

function startScript(): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return pkg.scripts.start;
}

/** The Node flags `npm start` runs with (package.json `scripts.start`): the heap settings. */
export function npmStartFlags(): string[] {
  return startScript().match(/--[\w-]+=\S+/g) ?? [];
}

/** The variables `npm start` sets before `node` (package.json `scripts.start`): the allocator's. */
export function npmStartEnv(): Record<string, string> {
  const assignments = /^((?:\w+=\S+\s+)*)node\b/.exec(startScript())?.[1] ?? '';
  return Object.fromEntries(
    assignments
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** One `npm start` server (scripts/start.mjs) on the suite's build, pointed at the mock. */
export async function startSite(options: SiteOptions): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...npmStartEnv(),
    ...demoEnv({}),
    ASTRO_TELEMETRY_DISABLED: '1',
    HOST: '127.0.0.1',
    PORT: String(port),
    MASTHEAD_OUT_DIR: OUT_DIR,
    PUBLISHING_BASE_URL: options.mock.publishingUrl,
    LODGING_BASE_URL: options.mock.lodgingUrl,
    TRUST_PROXY: 'true',
    STATUS_TOKEN,
    METRICS_TOKEN,
    REDIS_URL: options.redisUrl ?? '',
    // Every server behind one edge signs image addresses with the same key (docs/deploy.md).
    IMAGE_SIGNING_SECRET: 'deploy-suite-image-signing-key',
    IMAGE_CACHE_DIR: join(tmpdir(), `masthead-deploy-images-${port}`),
    UPSTREAM_CACHE_DIR: join(tmpdir(), `masthead-deploy-cache-${port}`),
    // The site's own defaults, whatever the calling shell raised for other suites.
    PUBLISHING_PUBLIC_PER_MINUTE: '',
    PUBLISHING_TOKEN_PER_MINUTE: '',
    LODGING_PER_MINUTE: '',
    // Every test client is 127.0.0.1 (through the edge too), one visitor charged like any
    // address: it may spend the whole budget; a test that checks shares sets its own.
    UPSTREAM_VISITOR_SHARE: '1',
    UPSTREAM_LODGING_SEARCH_SHARE: '1',
    // Tests that count upstream calls; tests/deploy/freshness.test.ts turns it on.
    WATCH_CHANGES: 'false',
    ...options.env,
  };
  const site = new Service(
    `site :${port}`,
    port,
    process.execPath,
    [...npmStartFlags(), join(root, 'scripts/start.mjs')],
    env,
    async () => {
      try {
        return (await send(`http://127.0.0.1:${port}/favicon.svg`)).status === 200;
      } catch {
        return false;
      }
    },
  );
  await site.start();
  return site;
}

/** The shipped deploy/nginx/masthead.conf with only its EDIT lines changed: address, servers, cache dir. */
export function edgeConfig(shipped: string, listen: number, upstreams: number[], cacheDir: string) {
  const replace = (text: string, pattern: RegExp, replacement: string) => {
    if (!pattern.test(text)) throw new Error(`deploy/nginx/masthead.conf: ${pattern} not found`);
    return text.replace(pattern, replacement);
  };
  let conf = replace(
    shipped,
    /(upstream masthead \{\n)(?:\s*#.*\n)?(?:\s*server .*\n)+/,
    `$1${upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;\n`).join('')}`,
  );
  conf = replace(conf, /listen 80;/, `listen 127.0.0.1:${listen};`);
  conf = replace(conf, /\/var\/cache\/nginx\/masthead/, cacheDir);
  return conf;
}

/** nginx in the foreground with a temp prefix: `httpConf(dir)` inside a minimal main file. */
export async function startNginx(
  httpConf: (dir: string, port: number) => string,
  chosenPort?: number,
): Promise<Service & { dir: string }> {
  const port = chosenPort ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'masthead-nginx-'));
  const asRoot = process.getuid?.() === 0;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${asRoot ? 'user root;\n' : ''}${existsSync(PURGE_MODULE) ? `load_module ${PURGE_MODULE};\n` : ''}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${httpConf(dir, port)}
}
`,
  );
  const nginx = new Service('nginx', port, NGINX, [
    '-p',
    dir,
    '-e',
    join(dir, 'error.log'),
    '-c',
    join(dir, 'nginx.conf'),
  ]);
  await nginx.start();
  return removingDir(nginx, dir);
}

/** The service, whose `stop` also removes its temporary folder. */
function removingDir(service: Service, dir: string): Service & { dir: string } {
  const stop = service.stop.bind(service);
  return Object.assign(service, {
    dir,
    stop: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** The shipped edge config in front of the servers on `upstreams`. */
export function startEdge(upstreams: number[], port?: number): Promise<Service & { dir: string }> {
  const shipped = readFileSync(join(root, 'deploy/nginx/masthead.conf'), 'utf8');
  return startNginx((dir, port) => {
    mkdirSync(join(dir, 'cache'));
    writeFileSync(
      join(dir, 'masthead.conf'),
      edgeConfig(shipped, port, upstreams, join(dir, 'cache')),
    );
    return `  include ${dir}/masthead.conf;`;
  }, port);
}

/** Prometheus (Debian's package) scraping `/_metrics` of `targets` every second, with the token. */
export async function startPrometheus(targets: number[]): Promise<Service & { dir: string }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'masthead-prometheus-'));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global:
  scrape_interval: 1s
scrape_configs:
  - job_name: masthead
    metrics_path: /_metrics
    authorization:
      credentials: ${METRICS_TOKEN}
    static_configs:
      - targets: [${targets.map((target) => `'127.0.0.1:${target}'`).join(', ')}]
`,
  );
  const prometheus = new Service('prometheus', port, PROMETHEUS, [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
  ]);
  await prometheus.start();
  return removingDir(prometheus, dir);
}

export interface TwoServers {
  mock: Mock;
  redis: Service;
  sites: Service[];
  /** Stops the servers, Redis and the mock. */
  stop(): Promise<void>;
}

/** The mock at its documented limits, Redis, and two servers sharing it, with `env` on both. */
export async function startTwoServers(env: Record<string, string> = {}): Promise<TwoServers> {
  const mock = await startDocumentedMock();
  const redis = await startRedis();
  const redisUrl = `redis://127.0.0.1:${redis.port}`;
  const sites = await Promise.all([
    startSite({ mock, redisUrl, env }),
    startSite({ mock, redisUrl, env }),
  ]);
  return {
    mock,
    redis,
    sites,
    async stop() {
      await Promise.all(sites.map((site) => site.stop()));
      await redis.stop();
      await mock.close();
    },
  };
}
