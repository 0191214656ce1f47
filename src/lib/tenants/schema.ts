import { isRecord } from '../content/records.ts';
import { InlineProfileSchema } from '../profiles/schema.ts';
import { z } from 'zod';
import { issueMessage, issuePath, parseJsonText } from '../failures/fields.ts';
import { MESSAGE_KEYS } from '../i18n/dictionary.ts';
import { memo } from '../memo.ts';

/**
 * Route names a tenant id must not take, or `/<id>/…` path prefixes would shadow real pages: every
 * top-level entry of src/pages (tests/unit/tenants/reserved.test.ts keeps the two in step).
 */
export const RESERVED_TENANT_IDS = (
  '400 404 421 500 503 account api categories embed epaper login logout news-sitemap.xml ' +
  'plans posts reader.css register robots.txt rss.xml search sitemap-pages.xml sitemap.xml ' +
  'stay streams tags page pagefind'
).split(' ');

/** What tenant ids, plan and category slugs look like. */
export const SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const slug = (example: string) => z.string().regex(SLUG, `Expected ${example}`);
/** A list that names each item once. */
const distinct = <Item extends z.ZodType>(item: Item, what: string) =>
  z.array(item).refine((items) => new Set(items).size === items.length, `List each ${what} once`);
/** A value `check` accepts without throwing. */
const accepted = (check: (value: string) => boolean, message: string) =>
  z.string().refine((value) => {
    try {
      return check(value);
    } catch {
      return false;
    }
  }, message);

const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'Expected a hex colour such as "#1a5fb4"');

const LABELS = String.raw`[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*`;
const hostName = z
  .string()
  .regex(
    new RegExp(String.raw`^(\*\.)?${LABELS}$`),
    'Expected a lower-case host name such as "news.example.com" or "*.example.com" (no port, no scheme)',
  );

/** An iframe host, optionally with the one port it may use: `player.example.com`, `127.0.0.1:4010`. */
const embedHost = z
  .string()
  .regex(
    new RegExp(String.raw`^${LABELS}(?::\d{1,5})?$`),
    'Expected a lower-case host name, optionally with a port ("player.example.com", "127.0.0.1:4010")',
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

const locale = accepted(
  (value) => Intl.getCanonicalLocales(value).length === 1,
  'Expected a BCP 47 locale such as "en-GB"',
);

// Once per zone: a formatter costs 0.2 to 0.4 ms, a third of a reload of 500 tenants (bench/tenants.md).
const timeZone = accepted(
  memo((value: string) => Boolean(new Intl.DateTimeFormat('en', { timeZone: value })), {
    max: 600,
  }),
  'Expected an IANA time zone such as "Europe/Berlin"',
);

/** One family: a quoted name or bare words of font-name characters (no `<`, `;`, `{`, `\\` or `/`). */
const FONT_FAMILY = String.raw`(?:"[\p{L}\p{N} ._-]+"|'[\p{L}\p{N} ._-]+'|[\p{L}\p{N}_-]+(?: [\p{L}\p{N}_-]+)*)`;
const FONT_STACK = new RegExp(String.raw`^\s*${FONT_FAMILY}(?:\s*,\s*${FONT_FAMILY})*\s*$`, 'u');

/** A CSS `font-family` list; it lands in an inline `<style>`, so nothing else may pass. */
const fontStack = z
  .string()
  .regex(
    FONT_STACK,
    'Expected a comma-separated list of font names such as \'"Source Serif 4", Georgia, serif\' (letters, digits, spaces, ".", "_", "-" and quotes only)',
  );

/** An image address: http(s), or a path on the site itself (never `javascript:`, `data:` or `//host`). */
const imageUrl = z
  .string()
  .min(1)
  .refine(
    (value) =>
      /^\/(?![/\\])/.test(value)
        ? !/[\s\\]/.test(value)
        : ['http:', 'https:'].includes(URL.parse(value)?.protocol ?? ''),
    'Expected an http(s) URL or a site path starting with "/"',
  );

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

const ThemeSchema = z.strictObject({
  colors: ColorsSchema,
  /** Dark-mode overrides; unset values fall back to sensible dark defaults. */
  dark: DarkColorsSchema.prefault({}),
  logo: z
    .strictObject({
      src: imageUrl,
      alt: z.string(),
      width: z.int().positive(),
      height: z.int().positive(),
    })
    .optional(),
  fontStack: fontStack.default(SYSTEM_FONT_STACK),
  headingFontStack: fontStack.optional(),
});

const PublishingConfigSchema = z.strictObject({
  /** Base address of the publishing API, ending in `/api/v1`. */
  baseUrl: apiBaseUrl,
  /** Env var holding a read token for builds and server reads (optional). */
  tokenEnv: envVarName.optional(),
  /** Extra iframe hosts kept in post content and stream embeds (video players); YouTube and Vimeo are built in. */
  embedHosts: z.array(embedHost).default([]),
  /**
   * Hosts besides the API's own origin whose pictures the image route may fetch (a media CDN);
   * pictures from any other host are not shown.
   */
  mediaHosts: z.array(hostName).default([]),
  /**
   * Slugs of the plans that unlock the e-paper, the one to lead with first. The e-paper paywall offers
   * only these (other plans stay on /plans); empty: the paywall links to /plans.
   */
  epaperPlans: distinct(slug('a plan slug such as "digital-epaper"'), 'plan').default([]),
  /** How this API spells the operations: a file of profiles/ by name, or parts inline (README, "Upstream profiles"). */
  profile: InlineProfileSchema.optional(),
});

/** A rule of the lodging API for one optional form field (e.g. its phone is required). */
const FieldRuleSchema = (maxLength: number) =>
  z.strictObject({
    required: z.boolean().default(false),
    /** Shorter than the form's own limit when the lodging API refuses longer text. */
    maxLength: z.int().min(1).max(maxLength).optional(),
  });

/** Where guests book when the lodging API's answers cannot be used online. */
const LodgingContactSchema = z
  .strictObject({
    phone: z.string().min(3).max(40).optional(),
    email: z.email().optional(),
    url: z.url({ protocol: /^https?$/ }).optional(),
  })
  .refine((c) => c.phone ?? c.email ?? c.url, {
    message: 'Give at least one of phone, email or url',
  });

const LodgingConfigSchema = z
  .strictObject({
    baseUrl: apiBaseUrl,
    /** Env var holding a lodging API token (`lodgingToken` in SECRETS_FILE wins). */
    tokenEnv: envVarName.optional(),
    /** Env vars holding an e-mail and password to log in with when no token is set. */
    emailEnv: envVarName.optional(),
    passwordEnv: envVarName.optional(),
    propertyIds: z.array(z.uuid()).min(1),
    /** Origins allowed to frame the booking widget (`frame-ancestors`). */
    allowedEmbedOrigins: z.array(origin).default([]),
    minNights: z.int().min(1).default(1),
    maxNights: z.int().min(1).max(30).default(30),
    /** The lodging API's own rules for the guest's optional fields, e.g. `{ phone: { required: true } }`. */
    fields: z
      .strictObject({
        phone: FieldRuleSchema(40).optional(),
        nationality: FieldRuleSchema(2).omit({ maxLength: true }).optional(),
        notes: FieldRuleSchema(1000).optional(),
      })
      .default({}),
    /** Shown to guests when booking is not available online. */
    contact: LodgingContactSchema.optional(),
    /** How this API spells the operations: a file of profiles/ by name, or parts inline. */
    profile: InlineProfileSchema.optional(),
  })
  // No name at all is fine: the credentials may be in SECRETS_FILE (missing ones are said at start).
  .refine((value) => (value.emailEnv === undefined) === (value.passwordEnv === undefined), {
    message: 'Set both emailEnv and passwordEnv, or neither',
    path: ['emailEnv'],
  })
  .refine((value) => value.minNights <= value.maxNights, {
    message: 'minNights must not exceed maxNights',
    path: ['minNights'],
  });

const StaticConfigSchema = z.strictObject({
  /** Origin of the static copy for canonical URLs, feeds and sitemap (default: the primary host over https). */
  origin: origin.optional(),
  /** Origin of the tenant's live server: comments, booking and subscriber editions link there. */
  liveOrigin: origin.optional(),
});

const FeaturesSchema = z.strictObject({
  epaper: z.boolean().default(true),
  streams: z.boolean().default(true),
  comments: z.boolean().default(true),
  booking: z.boolean().default(false),
});

/** Upper bound of section blocks: a front page, not an index of every category. */
const MAX_FRONT_SECTIONS = 8;

const FrontPageSchema = z.strictObject({
  /**
   * Category slugs whose latest stories get a block on the front page, in this order. Absent: the
   * four largest categories (the header's first four); a slug the API does not know is skipped.
   */
  sections: distinct(slug('a category slug such as "news"'), 'category')
    .max(MAX_FRONT_SECTIONS)
    .optional(),
});

const PluralMessageSchema = z.strictObject({
  zero: z.string().optional(),
  one: z.string().optional(),
  two: z.string().optional(),
  few: z.string().optional(),
  many: z.string().optional(),
  other: z.string(),
});

/** Per-tenant interface text: a key of `src/lib/i18n/messages/en.ts` and its text in the tenant's language. */
const MessageOverridesSchema = z.partialRecord(
  z.enum(MESSAGE_KEYS),
  z.union([z.string().min(1), PluralMessageSchema]),
);

export const TenantSchema = z
  .strictObject({
    /** The publishing API's short name for this site; also the `/<id>/` path prefix. */
    id: slug('a lower-case slug such as "daily-planet"').refine(
      (id) => !RESERVED_TENANT_IDS.includes(id),
      'This id is a reserved route name',
    ),
    name: z.string().min(1),
    description: z.string().default(''),
    /**
     * Host names that serve this tenant: exact names or `*.example.com` wildcards. At least one
     * exact name: links the site writes name only those (src/lib/tenants/origin.ts).
     */
    hosts: z
      .array(hostName)
      .min(1)
      .refine((hosts) => hosts.some((host) => !host.startsWith('*.')), {
        message:
          'Name at least one exact host (not only *.wildcards): links in pages, feeds and e-mails use it',
      }),
    locale,
    timeZone,
    theme: ThemeSchema,
    publishing: PublishingConfigSchema,
    lodging: LodgingConfigSchema.optional(),
    /** Settings for `npm run build:static` (plain files, no server). */
    static: StaticConfigSchema.optional(),
    features: FeaturesSchema.prefault({}),
    /** The front page's section blocks. */
    frontPage: FrontPageSchema.default({}),
    /** Interface text that differs from the language's dictionary, e.g. `{ "nav.stay": "Hotels" }`. */
    messages: MessageOverridesSchema.default({}),
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
  .superRefine(({ tenants }, ctx) => {
    const owners = new Map<string, string>();
    const refuse = (message: string, ...path: (string | number)[]) =>
      ctx.addIssue({ code: 'custom', message, path: ['tenants', ...path] });
    tenants.forEach((tenant, index) => {
      if (tenants.findIndex((other) => other.id === tenant.id) < index)
        refuse(`Duplicate tenant id "${tenant.id}"`, index, 'id');
      tenant.hosts.forEach((host, hostIndex) => {
        const owner = owners.get(host);
        if (owner)
          refuse(`Host "${host}" is already used by tenant "${owner}"`, index, 'hosts', hostIndex);
        owners.set(host, tenant.id);
      });
    });
  });

/** What people write in tenants.json. */
export type TenantInput = z.input<typeof TenantSchema>;
/** What the site reads, defaults applied. */
export type Tenant = z.output<typeof TenantSchema>;
export type TenantsFile = z.output<typeof TenantsFileSchema>;

/** One mistake of the file: the tenant (its id when it has one, its place) and zod's path and message. */
export interface TenantIssue {
  tenant?: string;
  index?: number;
  path: string;
  message: string;
}

export class TenantsConfigError extends Error {
  override name = 'TenantsConfigError';
  /** The schema's issues, one by one (none for a file that is unreadable or not JSON). */
  readonly issues: readonly TenantIssue[];
  constructor(message: string, issues: readonly TenantIssue[] = []) {
    super(message);
    this.issues = issues;
  }
}

/** Zod's issues with the tenant and field each names (`tenant "x"`, `theme.colors.primary`). */
function tenantIssues(error: z.ZodError, raw: unknown): TenantIssue[] {
  const rawTenants: unknown[] =
    isRecord(raw) && Array.isArray(raw['tenants']) ? raw['tenants'] : [];
  return error.issues.map((issue) => {
    const path = [...issue.path];
    const message = issueMessage(issue);
    if (path[0] !== 'tenants' || typeof path[1] !== 'number') {
      return { path: issuePath(path), message };
    }
    const index = path[1];
    const entry = rawTenants[index];
    const id = isRecord(entry) && typeof entry['id'] === 'string' ? entry['id'] : undefined;
    return { ...(id ? { tenant: id } : {}), index, path: issuePath(path.slice(2)), message };
  });
}

/**
 * Validates parsed tenants.json content; throws a readable `TenantsConfigError` naming tenant and
 * field, a line each: `tenant "x" (tenants[3]) → theme.colors.primary: …`.
 */
export function parseTenantsFile(raw: unknown, source = 'tenants.json'): TenantsFile {
  const result = TenantsFileSchema.safeParse(raw);
  if (result.success) return result.data;
  const issues = tenantIssues(result.error, raw);
  const lines = issues.map(({ tenant, index, path, message }) => {
    const place = index === undefined ? '' : `tenants[${index}]`;
    const where = tenant ? `tenant "${tenant}" (${place})` : place || 'tenants.json';
    return `\n  - ${where} → ${path}: ${message}`;
  });
  throw new TenantsConfigError(`Invalid ${source}:${lines.join('')}`, issues);
}

/** Parses the text of tenants.json (a UTF-8 BOM is fine), with line and column for broken JSON. */
export function parseTenantsText(
  text: string,
  source = 'tenants.json',
  /** A change to the parsed JSON before validation (deployment overrides). */
  adjust: (raw: unknown) => unknown = (raw) => raw,
): TenantsFile {
  const raw = parseJsonText(
    text,
    (reason) => new TenantsConfigError(`Invalid ${source}: ${reason}`),
  );
  return parseTenantsFile(adjust(raw), source);
}
