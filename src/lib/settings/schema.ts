import { envField } from 'astro/config';

/**
 * A positive number read by the server at run time (`max`: an upper bound, e.g. 1 for a share).
 * Only Astro's own keys count: an unknown one (such as `lte`) is silently dropped by Astro.
 */
const positive = (options: { optional?: boolean; int?: boolean; default?: number; max?: number }) =>
  envField.number({ context: 'server', access: 'secret', gt: 0, ...options });

/**
 * Every server setting: the `env.schema` of astro.config.mjs (read through `astro:env/server`) and
 * what the start-up check (`./validate.ts`) holds the environment to. Declare a new setting here.
 */
export const settingsSchema = {
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
  UPSTREAM_VISITOR_SHARE: positive({ optional: true, max: 1 }),
  UPSTREAM_HUMAN_RESERVE: positive({ optional: true, max: 1 }),
  PAGE_DEADLINE_MS: positive({ optional: true }),
  UPSTREAM_NOT_FOUND_SECONDS: positive({ optional: true }),
  // Per-visitor limits of the site's own forms and endpoints.
  AUTH_LOGIN_FAILURES_PER_IP_PER_15_MIN: positive({ int: true, default: 10 }),
  AUTH_REGISTRATIONS_PER_IP_PER_HOUR: positive({ int: true, default: 10 }),
  COMMENTS_PER_IP_PER_10_MIN: positive({ int: true, default: 10 }),
  BOOKING_PER_IP_PER_10_MIN: positive({ int: true, default: 10 }),
  BOOKING_SEARCHES_PER_IP_PER_MIN: positive({ int: true, default: 30 }),
  // Idle lifetime of a visitor's session (each visit extends it); read by the session driver.
  SESSION_TTL_SECONDS: positive({ int: true, optional: true }),
  // The image route (/_img/…, src/lib/images/): HMAC key of its URLs (unset: random per process,
  // so several servers behind one edge must share it), the disk cache of derived images and its
  // byte limit, and the limits on each source: bytes, pixels, time, transforms at once.
  IMAGE_SIGNING_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
  IMAGE_CACHE_DIR: envField.string({ context: 'server', access: 'secret', optional: true }),
  IMAGE_CACHE_MAX_BYTES: positive({ int: true, default: 512 * 1024 * 1024 }),
  IMAGE_SOURCE_MAX_BYTES: positive({ int: true, default: 25 * 1024 * 1024 }),
  IMAGE_SOURCE_MAX_PIXELS: positive({ int: true, default: 40_000_000 }),
  IMAGE_TIMEOUT_MS: positive({ int: true, default: 15_000 }),
  IMAGE_TRANSFORMS: positive({ int: true, default: 2 }),
  // `false` behind a proxy or CDN that compresses itself.
  COMPRESSION: envField.boolean({ context: 'server', access: 'secret', default: true }),
};
