import { isRecord } from '../content/records.ts';
import { z } from 'zod';
import type { HttpMethod, UpstreamRequest } from './http.ts';
import { findList, LIST_PLACES, pageMetaAt, valueAt } from './parse.ts';

/**
 * Upstream profiles: how one API spells the operations a client declares. This is the one place
 * that turns a profile into requests and responses: the method and path of an operation, the names
 * of its query and body fields, where its list or item sits in the body, and where each field the
 * site reads is found. Where a profile says nothing, the request goes out as the client declared it
 * and the body reaches the client's lenient zod schemas untouched.
 */

/** Where a value is found: a dot path (`data.items`, `address.city`, `images.0.url`); `""` is the body. */
const sourcePath = z
  .string()
  .regex(
    /^$|^[^.\s[\]]+(\.[^.\s[\]]+)*$/,
    'Expected a dot path into the answer, such as "data.items", "author.name" or "images.0.url"',
  );
type SourcePath = string;

/** One path or alternatives, first found wins. */
const sourcePaths = z
  .union([sourcePath, z.array(sourcePath).min(1)])
  .transform((value) => (typeof value === 'string' ? [value] : value));

const siteField = z
  .string()
  .regex(
    /^[a-z_][a-z0-9_]*((\.|\[\]\.)[a-z_][a-z0-9_]*)*$/,
    'Expected a field the site reads, such as "title", "category.slug" or "room_types[].total_price"',
  );

/** One operation in a profile file (`profiles/*.json`, read by src/lib/profiles/schema.ts). */
export const OperationProfileSchema = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  /** Relative to the base address, with `{param}` placeholders: `/articles/{slug}`. */
  path: z
    .string()
    .regex(
      /^\/[^\s?#]*$/,
      'Expected a path relative to the base address, starting with "/", such as "/articles/{slug}"',
    )
    .optional(),
  /** Where the list (or the item) sits in the body, first match wins; `""` is the body itself. */
  envelope: sourcePaths.optional(),
  /**
   * Site field → where the API has it (alternatives, first found wins). A target `a[].b` maps `b`
   * of every element of the list `a`, sources relative to that element; `meta.total` and other
   * `meta.*` targets of a list read from the body's root.
   */
  fields: z.record(siteField, sourcePaths).optional(),
  /** Query and body names the API uses instead of the site's: `{ "per_page": "limit" }`. */
  rename: z.record(z.string().min(1), z.string().min(1)).optional(),
});
export type OperationProfile = z.output<typeof OperationProfileSchema>;

export interface ServiceProfile {
  /** The profile's name (file name) or `inline`, for logs and `/_status`. */
  name: string;
  operations: Readonly<Record<string, OperationProfile>>;
}

/** What a client declares of an operation; the profile decides how it is spelled. */
export interface OperationNeeds {
  /** `list`: a page of items; `item` (the default): one resource. */
  kind?: 'list' | 'item' | undefined;
  /** Fields the site cannot work without, as the site names them (`room_types[].total_price`). */
  needs: readonly string[];
  /** Reads the doctor may try (no writes, no personal reads); none by default. */
  read?: boolean | undefined;
  /** The path without a profile (the mock's default dialect). */
  path: string;
  method?: HttpMethod | undefined;
}

type Raw = Record<string, unknown>;

/** The value at the first of `paths` that holds one (not null or undefined). */
function firstValue(value: unknown, paths: readonly SourcePath[]): unknown {
  return paths
    .map((path) => valueAt(value, path))
    .find((found) => found !== undefined && found !== null);
}

/** A copy of `target` with `value` at the dot path `path` (objects on the way copied, not changed). */
function withValue(target: Raw, path: string, value: unknown): Raw {
  const [head = '', ...rest] = path.split('.');
  if (rest.length === 0) return { ...target, [head]: value };
  const inner = isRecord(target[head]) ? target[head] : {};
  return { ...target, [head]: withValue(inner, rest.join('.'), value) };
}

/** `item` with every mapped field at the site's name; `a[].b` targets map inside the list `a`. */
export function mapFields(
  item: unknown,
  fields: Readonly<Record<string, readonly SourcePath[]>>,
  root?: unknown,
): unknown {
  if (!isRecord(item)) return item;
  let out: Raw = { ...item };
  const nested = new Map<string, Record<string, readonly SourcePath[]>>();
  for (const [target, sources] of Object.entries(fields)) {
    const split = target.indexOf('[].');
    if (split >= 0) {
      const list = target.slice(0, split);
      const inner = nested.get(list) ?? {};
      inner[target.slice(split + 3)] = sources;
      nested.set(list, inner);
      continue;
    }
    // `meta.*` of a list reads from the body's root, the rest from the item.
    const from = root !== undefined && target.startsWith('meta.') ? root : item;
    const found = firstValue(from, sources);
    if (found !== undefined) out = withValue(out, target, found);
  }
  // Lists after plain fields, so `room_types[].x` sees `room_types` already mapped.
  for (const [list, inner] of nested) {
    const elements = valueAt(out, list);
    if (Array.isArray(elements)) {
      out = withValue(
        out,
        list,
        elements.map((element) => mapFields(element, inner)),
      );
    }
  }
  return out;
}

/** Where a list usually sits when a profile names no envelope: where the schemas look, and `results`. */
const LIST_ENVELOPES: readonly SourcePath[] = [...LIST_PLACES, 'results'];

/** The list in `body` and where: at the profile's envelope, else the first usual place holding one. */
export const listAt = (body: unknown, envelope: readonly SourcePath[] | undefined) =>
  findList(body, envelope ?? LIST_ENVELOPES);

/** The item in `body`: at the profile's envelope, else inside a `data` envelope, else the body. */
export function findItem(body: unknown, envelope: readonly SourcePath[] | undefined): unknown {
  if (envelope) return firstValue(body, envelope);
  return isRecord(body) && isRecord(body['data']) ? body['data'] : body;
}

/**
 * The body as the client's schema reads it: the envelope found and re-wrapped as `{ data, meta }`
 * (lists) or `{ data }` (items), each item's fields at the site's names. Unchanged without a profile.
 */
export function reshapeBody(
  body: unknown,
  op: OperationProfile | undefined,
  kind: OperationNeeds['kind'],
): unknown {
  if (!op || (!op.envelope && !op.fields)) return body;
  const fields = op.fields ?? {};
  if (kind !== 'list')
    return { data: mapFields(findItem(body, op.envelope) ?? body, fields, body) };
  const found = listAt(body, op.envelope);
  // No list where the profile says: left to the schema, which says what it lacks.
  if (!found) return body;
  const isMeta = ([target]: [string, unknown]) => target.startsWith('meta.');
  const entries = Object.entries(fields);
  const itemFields = Object.fromEntries(entries.filter((entry) => !isMeta(entry)));
  const meta = pageMetaAt(body, found.path) ?? {};
  // `meta.*` targets read from the body's root (`mapFields`).
  const paged = mapFields({ meta }, Object.fromEntries(entries.filter(isMeta)), body);
  const data = found.list.map((item) => mapFields(item, itemFields));
  return { data, meta: valueAt(paged, 'meta') };
}

/** `/articles/{slug}` with each placeholder URL-encoded from `params`; unknown ones stay. */
export function fillPath(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return typeof value === 'string' || typeof value === 'number'
      ? encodeURIComponent(String(value))
      : whole;
  });
}

/** `values` with each key the profile renames sent under the API's name. */
export function renameKeys<T>(
  values: Readonly<Record<string, T>> | undefined,
  rename: Readonly<Record<string, string>> | undefined,
): Record<string, T> | undefined {
  if (!values || !rename) return values;
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [rename[key] ?? key, value]),
  );
}

type ProfiledRequest = Pick<UpstreamRequest, 'path' | 'query' | 'body'> & { method: HttpMethod };

/** Method, path, query and body of an operation as the profile spells them. */
export function profiledRequest(
  declared: ProfiledRequest & { params?: Readonly<Record<string, unknown>> | undefined },
  op: OperationProfile | undefined,
): ProfiledRequest {
  if (!op) return declared;
  const body = isRecord(declared.body) ? renameKeys(declared.body, op.rename) : declared.body;
  return {
    method: op.method ?? declared.method,
    path: op.path ? fillPath(op.path, declared.params ?? {}) : declared.path,
    query: renameKeys(declared.query, op.rename),
    body,
  };
}

/** Each needed field that `parsed` (what the schema made of the body) lacks. */
export function missingNeeds(parsed: unknown, needs: readonly string[]): string[] {
  return needs.filter((need) => !hasField(parsed, need));
}

function hasField(value: unknown, need: string): boolean {
  const split = need.indexOf('[].');
  if (split < 0) {
    const found = valueAt(value, need);
    return found !== undefined && found !== null && found !== '';
  }
  const at = valueAt(value, need.slice(0, split));
  // A list as sent (an array) or as a schema made it (`{ items }`).
  const list = isRecord(at) && Array.isArray(at['items']) ? at['items'] : at;
  // An empty list says nothing about its elements: not missing.
  return (
    Array.isArray(list) &&
    (list.length === 0 || list.some((element) => hasField(element, need.slice(split + 3))))
  );
}
