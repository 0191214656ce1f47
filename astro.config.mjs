// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { listStaticFiles, precompressAssets } from './src/lib/delivery/static-files.ts';
import { readTenantsFile } from './src/lib/tenants/loader.ts';
import { tenantsFileOptions } from './src/lib/tenants/upstream-override.ts';
import { readProfileTexts } from './src/lib/profiles/files.ts';
import { dependencyPatches } from './src/integrations/patches.ts';
import { MAX_BODY_BYTES } from './src/lib/request/body-limit.ts';
import { SESSION_COOKIE } from './src/lib/delivery/session-store.ts';
import { readSettings } from './src/lib/settings/settings.ts';
import { injectedRoutes } from './src/integrations/routes.ts';

// The build's own settings (the server's are read when it starts: src/lib/settings/settings.ts).
const build = readSettings(['MASTHEAD_OUT_DIR', 'MASTHEAD_BENCH', 'TENANTS_FILE']);

// The files of public/ the build serves as they are: a logo path of a site added at run time must be
// one of them (src/lib/tenants/registry.ts).
const publicFiles = [
  ...listStaticFiles(fileURLToPath(new URL('./public', import.meta.url))).keys(),
];

// Fail dev and build early, with a readable message, when the tenants file (a profile it names, or a
// logo) is invalid, as the server would. The server reads it at run time (TENANTS_FILE,
// src/lib/tenants/registry.ts), so a build without one (a container that mounts it) is fine.
if (existsSync(build.TENANTS_FILE)) {
  const profiles = readProfileTexts(fileURLToPath(new URL('./profiles', import.meta.url)));
  readTenantsFile(build.TENANTS_FILE, tenantsFileOptions({}, profiles, new Set(publicFiles)));
}

/** `npm run bench` builds with a plain page to compare against (never in a normal build). */
const benchRoutes = {
  name: 'masthead:bench-routes',
  hooks: {
    /** @param {{ injectRoute: (route: { pattern: string; entrypoint: string }) => void }} options */
    'astro:config:setup': ({ injectRoute }) => {
      if (build.MASTHEAD_BENCH) {
        injectRoute({ pattern: '/bench/plain', entrypoint: './bench/plain.astro' });
      }
    },
  },
};

/** Brotli and gzip copies of text assets next to them, served by `npm start` (scripts/start.mjs). */
const precompress = {
  name: 'masthead:precompress',
  hooks: {
    /** @param {{ dir: URL }} options */
    'astro:build:done': async ({ dir }) => {
      await precompressAssets(fileURLToPath(dir));
    },
  },
};

export default defineConfig({
  output: 'server',
  outDir: build.MASTHEAD_OUT_DIR,
  integrations: [benchRoutes, precompress, dependencyPatches(), injectedRoutes()],
  // Backstop for src/lib/request/body-limit.ts: the adapter never reads more than this (default 1 GB).
  adapter: node({
    mode: 'standalone',
    bodySizeLimit: MAX_BODY_BYTES,
    experimentalDisableStreaming: true,
  }),
  trailingSlash: 'ignore',
  // Astro's memoryCache, bounded: pages keyed by the query parameters they read, and no map that grows
  // with the URLs strangers send (src/lib/delivery/route-cache.ts).
  cache: {
    provider: {
      name: 'masthead-route-cache',
      entrypoint: fileURLToPath(new URL('./src/lib/delivery/route-cache.ts', import.meta.url)),
      config: { max: 2000, maxBytes: 64 * 1024 * 1024 },
    },
  },
  // Chosen when the server starts: Redis with REDIS_URL (shared by every server), files otherwise.
  session: {
    cookie: SESSION_COOKIE,
    driver: {
      entrypoint: new URL('./src/lib/delivery/session-store.ts', import.meta.url),
      config: { base: fileURLToPath(new URL('./node_modules/.astro/sessions', import.meta.url)) },
    },
  },
  // checkOrigin compares with `Host`, which a trusted proxy rewrites: src/middleware-chain.ts checks the
  // public origin instead (src/lib/request/host-guard.ts, same rules).
  // No plugins (`object-src`) and no `<base>` that would send every relative link and form elsewhere.
  security: {
    checkOrigin: false,
    csp: { directives: ["object-src 'none'", "base-uri 'self'"] },
  },
  server: { port: 4321, host: true, allowedHosts: true },
  // Styles and scripts as files, never inlined: the CSP then allows them by `'self'` instead of a
  // hash of every inline style and script of the build in every page's header (2 KB → 0.3 KB).
  build: { inlineStylesheets: 'never' },
  prefetch: false,
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
  vite: {
    define: { __MASTHEAD_PUBLIC_FILES__: JSON.stringify(publicFiles) },
    // Astro inlines a processed script below this size: 0 keeps every one a file (see `build`).
    // One stylesheet for every page (about 9 KB brotli), fetched once and cached: fewer
    // render-blocking requests on a first view than a file per component.
    build: { assetsInlineLimit: 0, cssCodeSplit: false },
    server: { allowedHosts: true },
    preview: { allowedHosts: true },
  },
});
