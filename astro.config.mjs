// @ts-check
import { defineConfig, envField, memoryCache } from 'astro/config';
import node from '@astrojs/node';
import { readFileSync } from 'node:fs';
import { parseTenantsText } from './src/lib/tenants/schema.ts';

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
 * @param {{ optional?: boolean; int?: boolean; default?: number }} options
 */
const positive = (options) =>
  envField.number({ context: 'server', access: 'secret', gt: 0, ...options });

export default defineConfig({
  output: 'server',
  outDir: process.env.MASTHEAD_OUT_DIR ?? './dist',
  integrations: [benchRoutes],
  adapter: node({ mode: 'standalone' }),
  trailingSlash: 'ignore',
  cache: { provider: memoryCache({ max: 2000 }) },
  security: { checkOrigin: true, csp: true },
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
      // Per-visitor limits of the site's own forms and endpoints.
      AUTH_LOGIN_FAILURES_PER_IP_PER_15_MIN: positive({ int: true, default: 10 }),
      AUTH_REGISTRATIONS_PER_IP_PER_HOUR: positive({ int: true, default: 10 }),
      COMMENTS_PER_IP_PER_10_MIN: positive({ int: true, default: 10 }),
      BOOKING_PER_IP_PER_10_MIN: positive({ int: true, default: 10 }),
      BOOKING_SEARCHES_PER_IP_PER_MIN: positive({ int: true, default: 30 }),
    },
  },
  vite: {
    server: { allowedHosts: true },
    preview: { allowedHosts: true },
  },
});
