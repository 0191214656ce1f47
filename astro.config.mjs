// @ts-check
import { defineConfig, envField, memoryCache } from 'astro/config';
import node from '@astrojs/node';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { precompressAssets } from './src/lib/delivery/precompress.ts';
import { parseTenantsText } from './src/lib/tenants/schema.ts';
import { badRequest400 } from './src/integrations/bad-request-400.ts';
import { MAX_BODY_BYTES } from './src/lib/request/body-limit.ts';

// Fail dev and build early, with a readable message, when tenants.json is invalid.
parseTenantsText(readFileSync(new URL('./tenants.json', import.meta.url), 'utf8'));

/** `npm run bench` builds with a plain page to compare against (never in a normal build). */
const benchRoutes = {
  name: 'masthead:bench-routes',
  hooks: {
    /** @param {{ injectRoute: (route: { pattern: string; entrypoint: string }) => void }} options */
    'astro:config:setup': ({ injectRoute }) => {
      if (process.env.MASTHEAD_BENCH === '1') {
        injectRoute({ pattern: '/bench/plain', entrypoint: './bench/plain.astro' });
      }
    },
  },
};

/**
 * A positive number read by the server at run time.
 * @param {{ optional?: boolean; int?: boolean; default?: number; lte?: number }} options
 */
const positive = (options) =>
  envField.number({ context: 'server', access: 'secret', gt: 0, ...options });

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
  outDir: process.env.MASTHEAD_OUT_DIR ?? './dist',
  integrations: [benchRoutes, precompress, badRequest400()],
  // Backstop for src/lib/request/body-limit.ts: the adapter never reads more than this (default 1 GB).
  adapter: node({ mode: 'standalone', bodySizeLimit: MAX_BODY_BYTES }),
  trailingSlash: 'ignore',
  cache: { provider: memoryCache({ max: 2000 }) },
  // Chosen when the server starts: Redis with REDIS_URL (shared by every server), files otherwise.
  session: {
    driver: {
      entrypoint: new URL('./src/lib/delivery/session-driver.ts', import.meta.url),
      config: { base: fileURLToPath(new URL('./node_modules/.astro/sessions', import.meta.url)) },
    },
  },
  // checkOrigin compares with `Host`, which a trusted proxy rewrites: src/middleware.ts checks the
  // public origin instead (src/lib/request/origin-check.ts, same rules).
  security: { checkOrigin: false, csp: true },
  server: { port: 4321, host: true, allowedHosts: true },
  prefetch: false,
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
  env: {
    schema: {
      // `secret` is Astro's run-time access mode (public server vars are inlined at build time):
      // these are deployment settings of the built server, not secrets.
      TRUST_PROXY: envField.boolean({ context: 'server', access: 'secret', default: false }),
      MASTHEAD_TENANT: envField.string({ context: 'server', access: 'secret', optional: true }),
      STATUS_TOKEN: envField.string({ context: 'server', access: 'secret', optional: true }),
      REDIS_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      // Signs guests' private "manage your booking" links (HMAC, per tenant). Unset: a random
      // secret per process (links die on restart): set it, 32+ random characters, in production.
      BOOKING_LINK_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      // Upstream budgets, timeout and cache: unset keeps the defaults in src/lib/upstream/.
      PUBLISHING_PUBLIC_PER_MINUTE: positive({ optional: true }),
      PUBLISHING_TOKEN_PER_MINUTE: positive({ optional: true }),
      LODGING_PER_MINUTE: positive({ optional: true }),
      UPSTREAM_BUDGET_RATIO: positive({ optional: true }),
      UPSTREAM_TIMEOUT_MS: positive({ optional: true }),
      UPSTREAM_CACHE_MAX_BYTES: positive({ optional: true }),
      // Fairness: one visitor's share of a shared budget, what crawlers leave to humans (0–1),
      // one deadline per page for its upstream calls, and how long an upstream 404 is remembered.
      UPSTREAM_VISITOR_SHARE: positive({ optional: true, lte: 1 }),
      UPSTREAM_HUMAN_RESERVE: positive({ optional: true, lte: 1 }),
      PAGE_DEADLINE_MS: positive({ optional: true }),
      UPSTREAM_NOT_FOUND_SECONDS: positive({ optional: true }),
      // Per-visitor limits of the site's own forms and endpoints.
      AUTH_LOGIN_FAILURES_PER_IP_PER_15_MIN: positive({ int: true, default: 10 }),
      AUTH_REGISTRATIONS_PER_IP_PER_HOUR: positive({ int: true, default: 10 }),
      COMMENTS_PER_IP_PER_10_MIN: positive({ int: true, default: 10 }),
      BOOKING_PER_IP_PER_10_MIN: positive({ int: true, default: 10 }),
      BOOKING_SEARCHES_PER_IP_PER_MIN: positive({ int: true, default: 30 }),
      // Idle lifetime of a visitor's session (each visit extends it); read by the session driver.
      SESSION_TTL_SECONDS: envField.number({
        context: 'server',
        access: 'secret',
        int: true,
        gt: 0,
        optional: true,
      }),
      // `false` behind a proxy or CDN that compresses itself.
      COMPRESSION: envField.boolean({ context: 'server', access: 'secret', default: true }),
    },
  },
  vite: {
    server: { allowedHosts: true },
    preview: { allowedHosts: true },
  },
});
