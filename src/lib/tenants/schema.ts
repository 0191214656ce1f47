import { z } from 'zod';

/** Route names a tenant id must not take, or `/<id>/…` path prefixes would shadow real pages. */
export const RESERVED_TENANT_IDS = [
  'api',
  'categories',
  'embed',
  'epaper',
  'login',
  'logout',
  'plans',
  'posts',
  'register',
  'rss.xml',
  'search',
  'sitemap.xml',
  'robots.txt',
  'stay',
  'streams',
  'tags',
  'theme.css',
  'account',
] as const;

const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'Expected a hex colour such as "#1a5fb4"');

const hostName = z
  .string()
  .regex(
    /^(\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/,
    'Expected a lower-case host name such as "news.example.com" or "*.example.com" (no port, no scheme)',
  );

const envVarName = z
  .string()
  .regex(
    /^[A-Z][A-Z0-9_]*$/,
    'Expected the NAME of an environment variable (A-Z, 0-9, _), never a secret',
  );

const origin = z
  .url({ protocol: /^https?$/ })
  .refine(
    (value) => new URL(value).origin === value,
    'Expected an origin such as "https://partner.example" (no path, no trailing slash)',
  );

const apiBaseUrl = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));

const locale = z.string().refine((value) => {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}, 'Expected a BCP 47 locale such as "en-GB"');

const timeZone = z.string().refine((value) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}, 'Expected an IANA time zone such as "Europe/Berlin"');

const SYSTEM_FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

const ColorsSchema = z.strictObject({
  /** Brand colour: header, links, buttons. */
  primary: hexColor,
  /** Text on top of the primary colour. */
  onPrimary: hexColor.default('#ffffff'),
  accent: hexColor,
  background: hexColor.default('#ffffff'),
  text: hexColor.default('#1b1b1f'),
  muted: hexColor.default('#5c5f66'),
  surface: hexColor.default('#f4f5f7'),
});

const DarkColorsSchema = z.strictObject({
  primary: hexColor.optional(),
  onPrimary: hexColor.optional(),
  accent: hexColor.optional(),
  background: hexColor.default('#121316'),
  text: hexColor.default('#ececf1'),
  muted: hexColor.default('#a4a7b0'),
  surface: hexColor.default('#1d1f24'),
});

export const ThemeSchema = z.strictObject({
  colors: ColorsSchema,
  /** Dark-mode overrides; unset values fall back to sensible dark defaults. */
  dark: DarkColorsSchema.default({
    background: '#121316',
    text: '#ececf1',
    muted: '#a4a7b0',
    surface: '#1d1f24',
  }),
  logo: z
    .strictObject({
      src: z.string().min(1),
      alt: z.string(),
      width: z.int().positive(),
      height: z.int().positive(),
    })
    .optional(),
  fontStack: z.string().min(1).default(SYSTEM_FONT_STACK),
  headingFontStack: z.string().min(1).optional(),
});

export const PublishingConfigSchema = z.strictObject({
  /** Base address of the publishing API, ending in `/api/v1`. */
  baseUrl: apiBaseUrl,
  /** Env var holding a read token for builds and server reads (optional). */
  tokenEnv: envVarName.optional(),
  /** Extra iframe hosts kept in post content and stream embeds (video players); YouTube and Vimeo are built in. */
  embedHosts: z.array(hostName).default([]),
  /**
   * Slugs of the plans that unlock the e-paper, the one to lead with first. The e-paper paywall offers
   * only these (other plans stay on /plans); empty: the paywall links to /plans.
   */
  epaperPlans: z
    .array(
      z
        .string()
        .regex(
          /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/,
          'Expected a plan slug such as "digital-epaper"',
        ),
    )
    .refine((slugs) => new Set(slugs).size === slugs.length, 'List each plan once')
    .default([]),
});

export const LodgingConfigSchema = z
  .strictObject({
    baseUrl: apiBaseUrl,
    /** Env var holding a lodging API token. */
    tokenEnv: envVarName.optional(),
    /** Env vars holding an e-mail and password to log in with when no token is set. */
    emailEnv: envVarName.optional(),
    passwordEnv: envVarName.optional(),
    propertyIds: z.array(z.uuid()).min(1),
    /** Origins allowed to frame the booking widget (`frame-ancestors`). */
    allowedEmbedOrigins: z.array(origin).default([]),
    minNights: z.int().min(1).default(1),
    maxNights: z.int().min(1).max(30).default(30),
  })
  .refine((value) => value.tokenEnv ?? (value.emailEnv && value.passwordEnv), {
    message: 'Set tokenEnv, or both emailEnv and passwordEnv',
    path: ['tokenEnv'],
  })
  .refine((value) => value.minNights <= value.maxNights, {
    message: 'minNights must not exceed maxNights',
    path: ['minNights'],
  });

export const FeaturesSchema = z.strictObject({
  epaper: z.boolean().default(true),
  streams: z.boolean().default(true),
  comments: z.boolean().default(true),
  booking: z.boolean().default(false),
});

export const TenantSchema = z
  .strictObject({
    /** The publishing API's short name for this site; also the `/<id>/` path prefix. */
    id: z
      .string()
      .regex(
        /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/,
        'Expected a lower-case slug such as "daily-planet"',
      )
      .refine(
        (id) => !(RESERVED_TENANT_IDS as readonly string[]).includes(id),
        'This id is a reserved route name',
      ),
    name: z.string().min(1),
    description: z.string().default(''),
    /** Host names that serve this tenant: exact names or `*.example.com` wildcards. */
    hosts: z.array(hostName).min(1),
    locale,
    timeZone,
    theme: ThemeSchema,
    publishing: PublishingConfigSchema,
    lodging: LodgingConfigSchema.optional(),
    features: FeaturesSchema.default({
      epaper: true,
      streams: true,
      comments: true,
      booking: false,
    }),
  })
  .refine((tenant) => !tenant.features.booking || tenant.lodging, {
    message: 'features.booking needs a lodging section',
    path: ['features', 'booking'],
  });

export const TenantsFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    tenants: z.array(TenantSchema).min(1, 'Configure at least one tenant'),
  })
  .superRefine((file, ctx) => {
    const ids = new Set<string>();
    const hosts = new Map<string, string>();
    file.tenants.forEach((tenant, index) => {
      if (ids.has(tenant.id)) {
        ctx.addIssue({
          code: 'custom',
          message: `Duplicate tenant id "${tenant.id}"`,
          path: ['tenants', index, 'id'],
        });
      }
      ids.add(tenant.id);
      tenant.hosts.forEach((host, hostIndex) => {
        const owner = hosts.get(host);
        if (owner) {
          ctx.addIssue({
            code: 'custom',
            message: `Host "${host}" is already used by tenant "${owner}"`,
            path: ['tenants', index, 'hosts', hostIndex],
          });
        }
        hosts.set(host, tenant.id);
      });
    });
  });

/** What people write in tenants.json. */
export type TenantInput = z.input<typeof TenantSchema>;
/** What the site reads, defaults applied. */
export type Tenant = z.output<typeof TenantSchema>;
export type TenantsFile = z.output<typeof TenantsFileSchema>;

export class TenantsConfigError extends Error {
  override name = 'TenantsConfigError';
}

/** Turns zod issues into lines that name the tenant and the field, e.g. `tenant "x" → theme.colors.primary: …`. */
export function formatTenantIssues(error: z.ZodError, raw: unknown): string {
  const rawTenants: unknown[] =
    raw && typeof raw === 'object' && Array.isArray((raw as { tenants?: unknown }).tenants)
      ? (raw as { tenants: unknown[] }).tenants
      : [];
  return error.issues
    .map((issue) => {
      const path = [...issue.path];
      let where = 'tenants.json';
      if (path[0] === 'tenants' && typeof path[1] === 'number') {
        const index = path[1];
        const entry = rawTenants[index];
        const id =
          entry && typeof entry === 'object' && typeof (entry as { id?: unknown }).id === 'string'
            ? (entry as { id: string }).id
            : undefined;
        where = id ? `tenant "${id}" (tenants[${index}])` : `tenants[${index}]`;
        path.splice(0, 2);
      }
      let message = issue.message;
      if (issue.code === 'unrecognized_keys') {
        message = `Unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
      }
      const field = path.length ? path.join('.') : '(root)';
      return `  - ${where} → ${field}: ${message}`;
    })
    .join('\n');
}

/** Validates parsed tenants.json content; throws a readable `TenantsConfigError` naming tenant and field. */
export function parseTenantsFile(raw: unknown, source = 'tenants.json'): TenantsFile {
  const result = TenantsFileSchema.safeParse(raw);
  if (!result.success) {
    throw new TenantsConfigError(`Invalid ${source}:\n${formatTenantIssues(result.error, raw)}`);
  }
  return result.data;
}

/** Parses the text of tenants.json, with a clear message for broken JSON too. */
export function parseTenantsText(text: string, source = 'tenants.json'): TenantsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TenantsConfigError(`Invalid ${source}: not valid JSON (${(error as Error).message})`);
  }
  return parseTenantsFile(raw, source);
}
