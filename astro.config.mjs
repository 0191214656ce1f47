// @ts-check
import { defineConfig, envField, memoryCache } from 'astro/config';
import node from '@astrojs/node';
import { readFileSync } from 'node:fs';
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

export default defineConfig({
  output: 'server',
  outDir: process.env.MASTHEAD_OUT_DIR ?? './dist',
  integrations: [benchRoutes, badRequest400()],
  // Backstop for src/lib/request/body-limit.ts: the adapter never reads more than this (default 1 GB).
  adapter: node({ mode: 'standalone', bodySizeLimit: MAX_BODY_BYTES }),
  trailingSlash: 'ignore',
  cache: { provider: memoryCache({ max: 2000 }) },
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
    },
  },
  vite: {
    server: { allowedHosts: true },
    preview: { allowedHosts: true },
  },
});
