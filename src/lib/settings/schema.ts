import { z } from 'zod';

/**
 * One environment variable: how its text is read (a zod schema with the default), what a value must
 * be (`expected`, for the start-up message: "a whole number greater than 0"), its README row
 * (`shown` default, `purpose` in Markdown), and `hidden` for text, which may be a token or a URL
 * with a password: a message never repeats its value.
 */
function setting<Schema extends z.ZodType>(
  schema: Schema,
  expected: string,
  shown: string,
  purpose: string,
  hidden = false,
) {
  return { schema, expected, shown, purpose, hidden };
}

export type Setting = ReturnType<typeof setting<z.ZodType>>;

/** `true` or `false`, nothing else (`off`, `0` and `yes` are mistakes, not a default). */
function flag(fallback: boolean, purpose: string) {
  const schema = z
    .stringbool({ truthy: ['true'], falsy: ['false'], case: 'sensitive' })
    .default(fallback);
  return setting(schema, 'true or false', `\`${fallback}\``, purpose);
}

/** A number with its default: greater than 0, or at least `min`; at most `max`. */
function number(
  { fallback, int, min, max }: { fallback: number; int?: boolean; min?: number; max?: number },
  purpose: string,
) {
  let schema = min === undefined ? z.coerce.number().gt(0) : z.coerce.number().min(min);
  if (int) schema = schema.int();
  if (max !== undefined) schema = schema.max(max);
  const least = min === undefined ? 'greater than 0' : `at least ${min}`;
  const most = max === undefined ? '' : ` and at most ${max}`;
  const expected = `${int ? 'a whole number' : 'a number'} ${least}${most}`;
  return setting(schema.default(fallback), expected, `\`${fallback}\``, purpose);
}

/** Free text, unset by default (`shown` names what unset means). */
const text = (purpose: string, shown = 'unset') =>
  setting(z.string().optional(), 'text', shown, purpose, true);

/** The shortest bearer secret accepted at start (`/_purge`, `/_metrics`, `/_status`): no guessing. */
export const MIN_SECRET_LENGTH = 32;

/** A bearer token, unset by default; a short one is refused at start. */
const token = (purpose: string) =>
  setting(
    z.string().min(MIN_SECRET_LENGTH).optional(),
    `a token of at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -hex 24\`)`,
    'unset',
    purpose,
    true,
  );

/** `PURGE_SECRETS` (`daily-planet=<secret>,…`) → secret by tenant id; each secret long enough. */
const purgeSecretPairs = z
  .string()
  .transform((value, ctx) => {
    const pairs = new Map<string, string>();
    for (const pair of value.split(',')) {
      const [id = '', secret] = pair.split(/=(.*)/s, 2).map((part) => part.trim());
      if (secret === undefined ? id !== '' : secret !== '' && secret.length < MIN_SECRET_LENGTH)
        ctx.addIssue({ code: 'custom', message: 'not a pair with a long enough secret' });
      else if (id && secret) pairs.set(id, secret);
    }
    return pairs;
  })
  .optional();

/** A path relative to the working directory, with its default. */
const path = (
  fallback: string,
  purpose: string,
  expected = 'a folder',
  shown = `\`${fallback}\``,
) => setting(z.string().default(fallback), expected, shown, purpose);

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** An http(s) address, unset by default. */
const address = (purpose: string) =>
  setting(z.url({ protocol: /^https?$/ }).optional(), 'an http(s) URL', 'unset', purpose, true);

/**
 * Every variable Masthead reads, declared once: the server's settings (checked before it starts and
 * by `/_health`), and those of the build, `npm start` and the static build. Defaults live here only.
 * Add a setting here, then `npm run settings:readme` writes its row into the README.
 */
export const settingDefinitions = {
  HOST: text(
    'where `npm start` listens (also read by the Node adapter); with `TRUST_PROXY=true` a HOST other machines can reach gets a warning at start',
    'all addresses; `127.0.0.1` with `TRUST_PROXY=true`',
  ),
  PORT: number(
    { fallback: 4321, int: true, min: 0, max: 65535 },
    'port of `npm start` (also read by the Node adapter)',
  ),
  MASTHEAD_TENANT: text('single-tenant mode: every request is this tenant id'),
  TENANTS_FILE: path(
    'tenants.json',
    'the sites this server runs, read when it starts and again when the file changes, on `SIGHUP` and when another server on `REDIS_URL` reloads (relative to the working directory; docs/deploy.md)',
    'a file',
    '`./tenants.json`',
  ),
  TENANTS_WATCH: flag(
    true,
    'reload `TENANTS_FILE` when it changes (`false`: only on `SIGHUP` or when another server on `REDIS_URL` reloads)',
  ),
  // A count, as Express's `trust proxy`: `X-Forwarded-For` is appended to by each proxy, so only the
  // entry the proxies in front of Node wrote is the visitor's; the ones before it are whatever was sent.
  TRUST_PROXY: setting(
    z
      .union([
        z.stringbool({ truthy: ['true'], falsy: ['false'], case: 'sensitive' }),
        z.coerce.number().int().min(1).max(9),
      ])
      .default(false),
    'true, false or the number of proxies in front of Node (1 to 9)',
    '`false`',
    "trust `X-Forwarded-Host` and `X-Forwarded-For` (only behind your own proxies): `true` is one proxy, which sets or appends the visitor's address; `2` when a CDN and a load balancer that both append are in front (docs/deploy.md)",
  ),
  STATUS_TOKEN: token('bearer token for `/_status` from non-local addresses'),
  METRICS_TOKEN: token(
    'bearer token for the Prometheus metrics at `/_metrics` from non-local addresses (docs/deploy.md)',
  ),
  WATCH_CHANGES: flag(
    true,
    "watch each tenant's newest posts (at most 4 calls a minute) and drop changed pages from every cache (docs/deploy.md); `false` in tests that count calls",
  ),
  SECRETS_FILE: text(
    "one file with every tenant's secrets (read tokens, lodging tokens, purge secrets), JSON or `.env` lines keyed by tenant id; mode 0600 or 0400 (others may not read it); read again when it changes or on `SIGHUP`; its values win over the variables below and `tokenEnv` (docs/deploy.md, section 8)",
  ),
  PURGE_SECRETS: setting(
    purgeSecretPairs,
    `\`tenant-id=<secret>\` pairs separated by commas, each secret at least ${MIN_SECRET_LENGTH} characters`,
    'unset',
    'per-tenant bearer secrets of `POST /_purge`: `daily-planet=<secret>,harbour-times=<secret>` (never in tenants.json; `purgeSecret` in `SECRETS_FILE` wins; neither: no purging)',
    true,
  ),
  EDGE_PURGE_URL: address(
    "the edge's purge address (`http://127.0.0.1/_edge_purge` with the shipped nginx config): changed and purged pages are dropped there too",
  ),
  LOG_LEVEL: setting(
    z.enum(LOG_LEVELS).default('info'),
    `one of ${LOG_LEVELS.join(', ')}`,
    '`info`',
    'least level of the JSON log lines on stderr (`info`: one line per request)',
  ),
  REDIS_URL: text('share the upstream cache, rate budget and visitor limits between instances'),
  SESSION_TTL_SECONDS: number(
    { fallback: 14 * 24 * 60 * 60, int: true },
    "idle lifetime of a visitor's session, extended on each visit (14 days); Redis with `REDIS_URL`",
  ),
  COMPRESSION: flag(true, '`false`: no brotli/gzip from Node (a proxy or CDN in front compresses)'),
  PUBLISHING_BASE_URL: address(
    "point every tenant at this publishing API instead of `tenants.json`'s (staging, tests)",
  ),
  LODGING_BASE_URL: address(
    "point every tenant at this lodging API instead of `tenants.json`'s (staging, tests)",
  ),
  PUBLISHING_PUBLIC_PER_MINUTE: number(
    { fallback: 60 },
    'anonymous publishing budget per upstream (the documented limit)',
  ),
  PUBLISHING_TOKEN_PER_MINUTE: number({ fallback: 240 }, 'publishing budget per token'),
  LODGING_PER_MINUTE: number({ fallback: 60 }, 'lodging budget per token'),
  UPSTREAM_BUDGET_RATIO: number(
    { fallback: 0.9 },
    'share of each upstream limit the site allows itself to spend',
  ),
  UPSTREAM_TIMEOUT_MS: number({ fallback: 8000 }, 'timeout of one upstream call attempt'),
  UPSTREAM_BODY_MAX_BYTES: number(
    { fallback: 16 * 1024 * 1024, int: true },
    'largest upstream answer read (16 MiB): a longer one is refused as an upstream error, never held in memory',
  ),
  UPSTREAM_CACHE_MAX_BYTES: number(
    { fallback: 64 * 1024 * 1024 },
    'memory cap of the upstream read cache (64 MiB)',
  ),
  UPSTREAM_CACHE_DIR: path(
    '.cache/upstream',
    'without `REDIS_URL`: where upstream values are kept across restarts (empty: nowhere, memory only)',
  ),
  UPSTREAM_CACHE_DISK_MAX_BYTES: number(
    { fallback: 256 * 1024 * 1024, int: true },
    'disk cap of `UPSTREAM_CACHE_DIR` (256 MiB; also at most 20,000 files)',
  ),
  CACHE_REDIS_URL: text(
    'a Redis for the upstream cache alone (`allkeys-lru`), apart from `REDIS_URL`’s guards (docs/deploy.md); `REDIS_URL` when unset',
  ),
  RENDER_CACHE_MAX_BYTES: number(
    { fallback: 16 * 1024 * 1024, min: 0, int: true },
    'memory cap of the page parts kept rendered for the next render of the same data (16 MiB; 0: none kept)',
  ),
  PAGE_DEADLINE_MS: number(
    { fallback: 4000 },
    'one deadline per page for all its upstream calls, retries included',
  ),
  UPSTREAM_VISITOR_SHARE: number(
    { fallback: 0.25, max: 1 },
    'share of a shared budget one visitor (an address, or a crawler by user agent) may spend on cache misses (at most 1)',
  ),
  UPSTREAM_HUMAN_RESERVE: number(
    { fallback: 0.3, max: 1 },
    'share of a shared budget crawlers leave to humans (at most 1)',
  ),
  UPSTREAM_LODGING_SEARCH_SHARE: number(
    { fallback: 0.1, max: 1 },
    "share of a tenant's lodging budget that availability searches beyond each address's first two a minute spend together, split among those addresses (at most 1)",
  ),
  UPSTREAM_BOOKING_RESERVE: number(
    { fallback: 0.3, max: 1 },
    "share of a tenant's lodging budget searches leave to the booking step (at most 1)",
  ),
  UPSTREAM_WRITE_RESERVE: number(
    { fallback: 0.1, max: 1 },
    'share of a publishing budget pages leave to sign-ins and comments (at most 1)',
  ),
  FRONT_PAGE_CACHE_SECONDS: number(
    { fallback: 60, int: true },
    'seconds the front page is served from the route cache (and an edge) before it is rendered again; its live band follows a stream within twice this plus 20 s, and is never kept past a scheduled start',
  ),
  UPSTREAM_NOT_FOUND_SECONDS: number({ fallback: 60 }, 'how long an upstream 404 is remembered'),
  AUTH_LOGIN_FAILURES_PER_IP_PER_15_MIN: number(
    { fallback: 10, int: true },
    'failed sign-ins per visitor address in 15 minutes',
  ),
  AUTH_REGISTRATIONS_PER_IP_PER_HOUR: number(
    { fallback: 10, int: true },
    'new accounts per visitor address in an hour',
  ),
  COMMENTS_PER_IP_PER_10_MIN: number(
    { fallback: 10, int: true },
    'comments per visitor address and tenant in 10 minutes',
  ),
  BOOKING_PER_IP_PER_10_MIN: number(
    { fallback: 10, int: true },
    'bookings per visitor address in 10 minutes',
  ),
  BOOKING_SEARCHES_PER_IP_PER_MIN: number(
    { fallback: 30, int: true },
    'availability searches per visitor address in a minute',
  ),
  BOOKING_LINK_SECRET: text(
    'HMAC key of guests\' private "manage your booking" links (32+ random characters; unset: links break on restart)',
    'random per process',
  ),
  SMTP_HOST: text(
    "mail server for guests' booking confirmations and find-my-booking links (unset: no e-mail is sent, none is promised)",
  ),
  SMTP_PORT: number(
    { fallback: 587, int: true, max: 65535 },
    'its port (465: TLS from the start; otherwise STARTTLS when the server offers it)',
  ),
  SMTP_USER: text('its login, when it asks for one'),
  SMTP_PASSWORD: text('the password of that login'),
  SMTP_FROM: text(
    "sender address of those e-mails (the tenant's name is shown as the sender)",
    '`SMTP_USER`, else `no-reply@<SMTP_HOST>`',
  ),
  IMAGE_SIGNING_SECRET: setting(
    z.string().min(16).optional(),
    'a key of at least 16 characters',
    'random per process',
    'HMAC key of image addresses (16+ characters; every server behind one edge needs the same; unset: addresses change on restart)',
    true,
  ),
  IMAGE_CACHE_DIR: text('disk cache of originals and derived images', '`.cache/images`'),
  IMAGE_CACHE_MAX_BYTES: number(
    { fallback: 512 * 1024 * 1024, int: true },
    'byte limit of that cache (512 MiB; least recently used out)',
  ),
  IMAGE_SOURCE_MAX_BYTES: number(
    { fallback: 64 * 1024 * 1024, int: true },
    'largest upstream picture fetched (64 MiB: a camera’s finest JPEG at `IMAGE_SOURCE_MAX_PIXELS`; a 61 MP extra-fine one is up to 40 MB, 0.65 bytes a pixel, so 100 MP about 65 MB)',
  ),
  IMAGE_SOURCE_MAX_PIXELS: number(
    { fallback: 100_000_000, int: true },
    'most pixels a source may have (decompression bombs; 100 MP: a 61 MP camera photo passes)',
  ),
  IMAGE_TIMEOUT_MS: number(
    { fallback: 15_000, int: true },
    'how long an image source may be silent (before it answers, or between bytes: a big photo on a slow link still arrives; ten times this in all); making an image is bounded by `IMAGE_SOURCE_MAX_PIXELS`, not this (a busy server makes a big photo later, not never; only a source stuck drawing for 2 minutes is given up)',
  ),
  IMAGE_WARM: flag(
    true,
    "make a new post's lead picture and a new edition's cover and first pages before readers come (one transform slot, after readers' pictures; needs `WATCH_CHANGES`)",
  ),
  IMAGE_TRANSFORMS: number(
    { fallback: 2, int: true },
    'images made at once (more wait in line, the picture in view first; up to 128 per slot)',
  ),
  MASTHEAD_OUT_DIR: path(
    './dist',
    'where `npm run build` writes the server and `npm start` serves it from',
  ),
  MASTHEAD_STATIC_FRESH_SECONDS: number(
    { fallback: 900, min: 0 },
    '`npm run build:static`: lists younger than this are not fetched again (`--fresh`)',
  ),
  MASTHEAD_STATIC_SNAPSHOT: text(
    'set by `npm run build:static` on the server it renders from (its snapshot file); never by hand',
  ),
  MASTHEAD_BENCH: flag(false, 'set by `npm run bench`: builds a plain page to compare against'),
};

type Definitions = typeof settingDefinitions;

/** The settings' zod schema, one field per variable, in declaration order. */
export const settingsSchema = z.object(
  Object.fromEntries(
    Object.entries(settingDefinitions).map(([name, setting]) => [name, setting.schema]),
  ) as { [Name in keyof Definitions]: Definitions[Name]['schema'] },
);

/** What the site runs with: typed, defaults filled in. */
export type Settings = z.infer<typeof settingsSchema>;
export type SettingName = keyof Settings;

/** Every setting at its default (what an empty environment gives). */
export const settingDefaults: Settings = settingsSchema.parse({});
