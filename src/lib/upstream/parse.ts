import { z } from 'zod';
import { InvalidResponseError } from './errors.ts';
import type { UpstreamService } from './errors.ts';
import { issuesSummary } from '../failures/fields.ts';
import { isRecord } from '../content/records.ts';

/**
 * Lenient building blocks for upstream payloads: a real upstream may differ from the mock in
 * details (envelope or not, numbers as strings, extra fields), and none of that should break a page.
 */

/** An integer that may arrive as a numeric string. */
export const int = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+$/)
      .transform(Number),
  ])
  .pipe(z.int());

/** A decimal kept as a string (money): `"129.00"`, also accepting a number. */
export const decimal = z.union([z.string(), z.number().transform((n) => n.toFixed(2))]);

/** A boolean that may arrive as 0/1 or "true"/"false". */
export const bool = z.union([
  z.boolean(),
  z.literal([0, 1]).transform((n) => n === 1),
  z.enum(['true', 'false', '1', '0']).transform((s) => s === 'true' || s === '1'),
]);

/** An id that is a number on one upstream and a string on another: kept as the upstream sent it. */
export const id = z.union([z.number(), z.string()]);

/**
 * The one scheme check for every address an upstream sends that ends up in an `href` or `src`: an
 * absolute http(s) URL, returned as the URL parser reads it (as a browser would: tabs, newlines and
 * leading control characters do not hide a `javascript:`); `null` for anything else (`javascript:`,
 * `data:`, relative or unparseable addresses).
 */
export function webUrl(candidate: string | null | undefined): string | null {
  const url = candidate ? URL.parse(candidate) : null;
  if (!url) return null;
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

/** A schema field holding such an address: as absent as sent, `null` when not http(s). */
export const webUrlField = z
  .string()
  .nullish()
  .transform((value) => (value === undefined ? undefined : webUrl(value)));

/** `schema` with or without a `data` envelope (with optional `meta`, `links`, `message`). */
export function enveloped<S extends z.ZodType>(schema: S) {
  return z.preprocess(
    (value) => (isRecord(value) && 'data' in value ? value['data'] : value),
    schema,
  );
}

/** A signed-in account as both APIs send it. */
export const accountSchema = z.looseObject({ id, name: z.string(), email: z.string().optional() });

/** Sign-in (and registration) on both APIs: `{ user, token, token_type }`, a `data` envelope also passes. */
export const loginSchema = enveloped(
  z.looseObject({
    user: accountSchema,
    token: z.string().min(1),
    token_type: z.string().optional(),
  }),
);

/** Both contracts' sign-in, declared once (each client's operations list it as `auth.login`). */
export const LOGIN_OPERATION = {
  method: 'POST',
  path: '/auth/login',
  needs: ['token'],
  schema: loginSchema,
} as const;

/** An answer that is only a message (a sign-out). */
export const messageSchema = z.looseObject({ message: z.string().optional() });

export const pageMetaSchema = z.looseObject({
  current_page: int.optional(),
  last_page: int.optional(),
  per_page: int.optional(),
  total: int.optional(),
  next_cursor: z.string().nullish().catch(undefined),
  /** The next page's address (`links.next` of a resource paginator): `null` on the last page. */
  next_page_url: z.string().nullish().catch(undefined),
});
export type PageMeta = z.output<typeof pageMetaSchema>;

export interface PageInfo {
  current: number;
  /** Uncounted (no `total`): the last page known to exist, the next one while there is one. */
  last: number;
  perPage: number;
  /** Absent when the upstream does not count (Laravel's `simplePaginate`). */
  total?: number | undefined;
  /** Laravel's cursor paginator: the `cursor` of the next page (no page numbers, no total). */
  nextCursor?: string | undefined;
}

export interface Paged<T> {
  items: T[];
  page: PageInfo;
}

/** What a caller asks of a paginated list. */
export interface PageParams {
  page?: number | undefined;
  perPage?: number | undefined;
}

// 50: the smaller maximum of both APIs (some upstreams refuse more with 422 instead of clamping).
const MAX_PER_PAGE = 50;

/**
 * A list read's `page` and `per_page` query (clamped to the APIs' maximum), and its `map`: the parsed
 * list (`listOf`) as `Paged`, each item `clean`ed, page info the upstream left out from the request.
 */
export function paged<T>(params: PageParams, clean?: (item: T) => T) {
  const { page, perPage } = params;
  return {
    query: { page, per_page: perPage === undefined ? undefined : Math.min(perPage, MAX_PER_PAGE) },
    map: (list: { items: T[]; meta?: PageMeta | undefined }): Paged<T> => ({
      items: clean ? list.items.map(clean) : list.items,
      page: pageInfo(list.meta, list.items.length, params),
    }),
  };
}

/** Normalizes Laravel meta (or none) into `PageInfo`; `requested` fills what the upstream omits. */
export function pageInfo(
  meta: PageMeta | undefined,
  count: number,
  requested: PageParams = {},
): PageInfo {
  const perPage = meta?.per_page ?? requested.perPage ?? Math.max(count, 1);
  const current = meta?.current_page ?? requested.page ?? 1;
  const nextCursor = meta?.next_cursor ?? undefined;
  const cursor = nextCursor ? { nextCursor } : {};
  // A paginator that says whether a next page exists but not how many (`simplePaginate`,
  // `cursorPaginate`): pages are known one at a time; an empty page is past the end.
  if (
    meta?.total === undefined &&
    meta?.last_page === undefined &&
    meta?.next_page_url !== undefined
  ) {
    const last = count ? current + (meta.next_page_url ? 1 : 0) : Math.max(1, current - 1);
    return { current, last, perPage, ...cursor };
  }
  const total = meta?.total ?? count;
  const last = meta?.last_page ?? Math.max(1, Math.ceil(total / Math.max(perPage, 1)));
  return { current, last, perPage, total, ...cursor };
}

/** Page fields Laravel's raw paginators put next to `data` instead of in `meta`. */
const PAGE_FIELDS = pageMetaSchema.keyof().options;

/** The value at the dot path `path` in `value` (`images.0.url`), or undefined (`""` is `value` itself). */
export function valueAt(value: unknown, path: string): unknown {
  if (path === '') return value;
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(part)) current = current[Number(part)];
    else if (isRecord(current)) current = current[part];
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

/** Where the list schemas look for a list: a bare array, `data`, a paginator in `data`, `items`. */
export const LIST_PLACES: readonly string[] = ['', 'data', 'data.data', 'items'];

/** The list in `body` and where: at the first of `places` holding one. */
export function findList(
  body: unknown,
  places: readonly string[] = LIST_PLACES,
): { path: string; list: unknown[] } | undefined {
  for (const path of places) {
    const list = valueAt(body, path);
    if (Array.isArray(list)) return { path, list };
  }
  return undefined;
}

/** A record's page fields: a raw paginator's at its top, then `meta`, then `links.next` as `next_page_url`. */
function pageFields(source: unknown): Record<string, unknown> {
  if (!isRecord(source)) return {};
  const meta: Record<string, unknown> = {};
  for (const name of PAGE_FIELDS) if (source[name] !== undefined) meta[name] = source[name];
  const { meta: inMeta, links } = source;
  const next = isRecord(links) && 'next' in links ? { next_page_url: links['next'] } : {};
  return { ...meta, ...(isRecord(inMeta) ? inMeta : {}), ...next };
}

/**
 * The page fields of a list found at `path` in `body`: the body's, then (winning) those beside the
 * list (a paginator nested in a `data` envelope); `undefined` when there are none.
 */
export function pageMetaAt(body: unknown, path: string): Record<string, unknown> | undefined {
  const beside = valueAt(body, path.split('.').slice(0, -1).join('.'));
  const meta = { ...pageFields(body), ...pageFields(beside) };
  return Object.keys(meta).length ? meta : undefined;
}

/**
 * A page of `item`: accepts `{ data: [...], meta, links }` (resource paginator), `{ data: [...],
 * current_page, last_page, … }` (raw `->paginate()`), `{ data: [...], next_cursor, … }`
 * (`->cursorPaginate()`), either nested in a `data` envelope, `{ data: [...] }`, `{ items: [...] }`
 * or a bare array, always giving `{ items, meta? }`.
 */
export function listOf<S extends z.ZodType>(item: S) {
  return z.preprocess(
    (value) => {
      const found = findList(value);
      return found ? { items: found.list, meta: pageMetaAt(value, found.path) } : value;
    },
    z.object({ items: itemsOf(item), meta: pageMetaSchema.optional() }),
  );
}

/** A list item left out because it does not match its schema (`itemsOf`). */
export interface DroppedItem {
  index: number;
  /** The item's `id` (or `slug`), when it has one. */
  id?: unknown;
  /** The zod issues, `title: Invalid input…`. */
  issues: string;
}

// Where `itemsOf` reports what it leaves out: set by `parseOrThrow` for one (synchronous) parse.
let droppedInParse: DroppedItem[] | undefined;

/**
 * An array read item by item: an item that does not match `item` is left out (and reported to
 * `parseOrThrow`), the rest kept. An array none of whose items match is the wrong shape, not an odd
 * record: it fails with the first item's issues.
 */
export function itemsOf<S extends z.ZodType>(item: S) {
  return z.array(z.unknown()).transform((values, ctx) => {
    const items: z.output<S>[] = [];
    const dropped: DroppedItem[] = [];
    let firstError: z.ZodError | undefined;
    values.forEach((value, index) => {
      const parsed = item.safeParse(value);
      if (parsed.success) return items.push(parsed.data);
      firstError ??= parsed.error;
      const id = isRecord(value) ? (value['id'] ?? value['slug']) : undefined;
      return dropped.push({ index, id, issues: issuesSummary(parsed.error.issues) });
    });
    // Reported even when the list then fails: a caller that catches that (`.catch`) keeps the parse.
    droppedInParse?.push(...dropped);
    if (firstError && !items.length) {
      for (const issue of firstError.issues) ctx.addIssue({ ...issue, path: [0, ...issue.path] });
      return z.NEVER;
    }
    return items;
  });
}

/** Parses with `schema` or throws `InvalidResponseError` carrying a short issue summary. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  context: {
    service: UpstreamService;
    operation: string;
    /** Told of each list item left out (`itemsOf`) when the whole parses. */
    dropped?: ((item: DroppedItem) => void) | undefined;
  },
): z.output<S> {
  const outer = droppedInParse;
  const dropped: DroppedItem[] = (droppedInParse = []);
  let result: z.ZodSafeParseResult<z.output<S>>;
  try {
    result = schema.safeParse(value);
  } finally {
    droppedInParse = outer;
  }
  if (result.success) {
    for (const item of dropped) context.dropped?.(item);
    return result.data;
  }
  const issues = issuesSummary(result.error.issues);
  throw new InvalidResponseError(
    `[${context.service}] ${context.operation}: response does not match the expected shape`,
    { service: context.service, operation: context.operation },
    issues,
  );
}
