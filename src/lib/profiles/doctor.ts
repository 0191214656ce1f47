import type { z } from 'zod';
import * as lodgingSchemas from '../lodging/schema.ts';
import { LODGING_OPERATIONS } from '../lodging/operations.ts';
import { PUBLISHING_OPERATIONS } from '../publishing/operations.ts';
import * as publishingSchemas from '../publishing/schema.ts';
import { issuesSummary } from '../failures/fields.ts';
import type { SecretKey } from '../secrets/schema.ts';
import type { Tenant } from '../tenants/schema.ts';
import {
  LIST_ENVELOPES,
  fillPath,
  findItem,
  findList,
  missingNeeds,
  renameKeys,
  reshapeBody,
  valueAt,
} from '../upstream/profile.ts';
import type { OperationNeeds, OperationProfile } from '../upstream/profile.ts';
import { candidatePaths } from './candidates.ts';
import { authHint, serviceTargets } from './doctor/target.ts';
import type { Overrides, ServiceTarget } from './doctor/target.ts';
import { resolveProfile } from './schema.ts';
import type { ProfileService, ProfileTexts } from './schema.ts';

/**
 * `npm run doctor -- <tenant>`: reads each read operation of the tenant's upstreams once and says,
 * per operation, whether the site can read it: status, envelope, each needed field with where it
 * was found and a sample, the rate-limit headers. Where a path answers 404 it tries the other
 * usual spellings; where a field is missing it searches the answer and proposes a profile entry.
 * It never writes to the upstream and never prints a token.
 */

export interface FieldReport {
  need: string;
  found: boolean;
  /** Where: the profile's path, a proposed one, or the site's own name. */
  path?: string | undefined;
  proposed?: boolean | undefined;
  sample?: string | undefined;
}

export interface OperationReport {
  service: ProfileService;
  operation: string;
  method: string;
  path?: string | undefined;
  /** The profile's (or default) path when it answered 404 and `path` is the one found instead. */
  notAt?: string | undefined;
  reachable: boolean;
  status?: number | undefined;
  envelope: { recognised: boolean; at?: string | undefined };
  fields: FieldReport[];
  rateLimit: Record<string, string>;
  /** What the answer did not fit, when the site's schema refused it. */
  issues?: string | undefined;
  /** On a 401 or 403: the secret or variable to set. */
  hint?: string | undefined;
  skipped?: string | undefined;
}

export interface DoctorReport {
  tenant: string;
  at: string;
  /** The address of each service read, where it came from and how the doctor signed in. */
  services: ServiceTarget[];
  operations: OperationReport[];
  /** Profile entries that make the reports' missing fields and paths readable, per service. */
  proposals: Partial<Record<ProfileService, Record<string, OperationProfile>>>;
  /** `operation → field` still unreadable with the proposals: the doctor exits non-zero. */
  unmapped: string[];
  calls: number;
}

export interface DoctorOptions {
  tenant: Tenant;
  profiles: ProfileTexts;
  /** The tenant's secrets (`tenantSecrets(…).values`: SECRETS_FILE, then variables). */
  secrets: Partial<Record<SecretKey, string>>;
  /** Where each secret came from (`tenantSecrets(…).from`), to name it when an API refuses it. */
  secretsFrom?: Partial<Record<SecretKey, string>>;
  /** The deployment's upstream overrides, already applied to `tenant` (to say where an address came from). */
  overrides?: Overrides;
  fetch?: typeof fetch;
  /** Upstream calls per service at most (the anonymous publishing budget is 60 a minute). */
  maxCalls?: number;
  timeoutMs?: number;
}

type Schema = z.ZodType;

const PUBLISHING_READS: Record<string, Schema> = {
  'posts.list': publishingSchemas.postListSchema,
  'posts.get': publishingSchemas.singlePostSchema,
  'categories.list': publishingSchemas.categoryListSchema,
  'categories.get': publishingSchemas.categoryDetailSchema,
  'tags.list': publishingSchemas.tagListSchema,
  'tags.get': publishingSchemas.tagDetailSchema,
  'plans.list': publishingSchemas.planListSchema,
  'plans.get': publishingSchemas.singlePlanSchema,
  'epaper.list': publishingSchemas.editionListSchema,
  'epaper.get': publishingSchemas.singleEditionSchema,
  'streams.list': publishingSchemas.streamListSchema,
  'streams.get': publishingSchemas.singleStreamSchema,
  'comments.list': publishingSchemas.commentListSchema,
};

const LODGING_READS: Record<string, Schema> = {
  'properties.list': lodgingSchemas.propertyListSchema,
  'properties.get': lodgingSchemas.singlePropertySchema,
  'properties.availability': lodgingSchemas.singleAvailabilitySchema,
  'bookings.list': lodgingSchemas.bookingListSchema,
  'guests.list': lodgingSchemas.guestListSchema,
};

/** Other usual names of each publishing resource, tried when the profile's path answers 404. */
const RESOURCE_NAMES: Record<string, readonly string[]> = {
  posts: ['posts', 'articles', 'stories', 'news'],
  categories: ['categories', 'sections', 'departments'],
  tags: ['tags', 'topics', 'keywords', 'labels'],
  plans: ['plans', 'subscription-plans', 'subscriptions/plans', 'subscriptions', 'pricing'],
  epaper: ['epaper', 'editions', 'e-paper', 'issues', 'epaper/editions'],
  streams: ['streams', 'broadcasts', 'livestreams', 'videos', 'live'],
};

/** Where a detail read takes its path parameter from: the list read before it. */
const PARAM_FROM: Record<string, { list: string; param: string; field: string }> = {
  'posts.get': { list: 'posts.list', param: 'slug', field: 'slug' },
  'categories.get': { list: 'categories.list', param: 'slug', field: 'slug' },
  'tags.get': { list: 'tags.list', param: 'slug', field: 'slug' },
  'plans.get': { list: 'plans.list', param: 'slug', field: 'slug' },
  'epaper.get': { list: 'epaper.list', param: 'slug', field: 'slug' },
  'streams.get': { list: 'streams.list', param: 'slug', field: 'slug' },
  'comments.list': { list: 'posts.list', param: 'postSlug', field: 'slug' },
};

/** Writes answer with the resource their list shows: they take its field entries. */
const WRITE_LIKE: Record<string, string> = {
  'bookings.create': 'bookings.list',
  'guests.create': 'guests.list',
  'comments.create': 'comments.list',
};

function pathAlternatives(operation: string, found: Map<string, string>): string[] {
  const [resource = '', verb] = operation.split('.');
  if (operation === 'comments.list') {
    const post = found.get('posts.get');
    return [
      ...(post ? [`${post.replace('{slug}', '{postSlug}')}/comments`] : []),
      ...(RESOURCE_NAMES['posts'] ?? []).map((name) => `/${name}/{postSlug}/comments`),
    ];
  }
  const names = RESOURCE_NAMES[resource];
  if (!names) return [];
  if (verb === 'list') return names.map((name) => `/${name}`);
  const list = found.get(`${resource}.list`);
  return [...(list ? [`${list}/{slug}`] : []), ...names.map((name) => `/${name}/{slug}`)];
}

const RATE_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
];

function sample(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 48 ? `${text.slice(0, 45)}…` : text;
}

function mergeOp(base: OperationProfile | undefined, extra: OperationProfile): OperationProfile {
  return {
    ...base,
    ...extra,
    ...((base?.fields ?? extra.fields) && { fields: { ...base?.fields, ...extra.fields } }),
  };
}

interface Answer {
  status: number;
  body: unknown;
  rateLimit: Record<string, string>;
}

/** One service's reads, in order (details after the lists that give their parameters). */
async function checkService(
  service: ProfileService,
  options: DoctorOptions,
  report: DoctorReport,
): Promise<void> {
  const { tenant } = options;
  const doFetch = options.fetch ?? fetch;
  const config = service === 'publishing' ? tenant.publishing : tenant.lodging;
  if (!config) return;
  const catalogue: Record<string, OperationNeeds> =
    service === 'publishing' ? PUBLISHING_OPERATIONS : LODGING_OPERATIONS;
  const reads = service === 'publishing' ? PUBLISHING_READS : LODGING_READS;
  const profile = resolveProfile(service, config.profile, options.profiles);
  const proposals: Record<string, OperationProfile> = {};
  const foundPaths = new Map<string, string>();
  const samples = new Map<string, unknown>();
  let calls = 0;
  const maxCalls = options.maxCalls ?? 40;
  let pageSizeName: string | undefined;

  const headers: Record<string, string> = { Accept: 'application/json' };
  if (service === 'publishing') {
    headers['X-Tenant'] = tenant.id;
    const token = options.secrets.publishingReadToken;
    if (token) headers['Authorization'] = `Bearer ${token}`;
  } else {
    const token = await lodgingToken(tenant, options, doFetch);
    calls += token.calls;
    if (token.value) headers['Authorization'] = `Bearer ${token.value}`;
  }

  const get = async (path: string, query: Record<string, string>): Promise<Answer | undefined> => {
    if (calls >= maxCalls) return undefined;
    calls += 1;
    const url = new URL(`${config.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const response = await doFetch(url, {
          headers,
          signal: AbortSignal.timeout(options.timeoutMs ?? 8000),
        });
        const rateLimit: Record<string, string> = {};
        for (const name of RATE_HEADERS) {
          const value = response.headers.get(name);
          if (value !== null) rateLimit[name] = value;
        }
        if (response.status === 429 && attempt === 0) {
          // Within the budget: wait what the API asks (a minute at most), then once more.
          const wait = Math.min(65, Number(response.headers.get('retry-after') ?? 60) || 60);
          await new Promise((resolve) => setTimeout(resolve, wait * 1000));
          continue;
        }
        const text = await response.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        return { status: response.status, body, rateLimit };
      } catch {
        return { status: 0, body: undefined, rateLimit: {} };
      }
    }
    return undefined;
  };

  for (const [operation, declared] of Object.entries(catalogue)) {
    const schema = reads[operation];
    if (!declared.read || !schema) continue;
    const op: OperationProfile | undefined = profile?.operations[operation];
    const entry: OperationReport = {
      service,
      operation,
      method: op?.method ?? declared.method ?? 'GET',
      reachable: false,
      envelope: { recognised: false },
      fields: [],
      rateLimit: {},
    };
    report.operations.push(entry);

    const params = paramsFor(operation, tenant, samples);
    if (params === undefined) {
      entry.skipped = 'no item to read it with (its list was empty or unreadable)';
      continue;
    }
    const query = renameKeys(queryFor(operation, declared), op?.rename) ?? {};
    const template = op?.path ?? declared.path;
    let answer = await get(fillPath(template, params), query);
    let usedTemplate = template;
    if (answer?.status === 404 && service === 'publishing') {
      for (const alternative of pathAlternatives(operation, foundPaths)) {
        if (alternative === template) continue;
        const tried = await get(fillPath(alternative, params), query);
        if (tried && tried.status >= 200 && tried.status < 300) {
          answer = tried;
          usedTemplate = alternative;
          proposals[operation] = mergeOp(proposals[operation], { path: alternative });
          break;
        }
      }
    }
    if (!answer) {
      entry.skipped = `not read: the doctor's budget of ${maxCalls} calls is spent`;
      continue;
    }
    entry.path = usedTemplate;
    if (usedTemplate !== template) entry.notAt = template;
    entry.status = answer.status;
    entry.rateLimit = answer.rateLimit;
    entry.reachable = answer.status > 0;
    if (answer.status < 200 || answer.status >= 300) {
      const refused = answer.status === 401 || answer.status === 403;
      if (refused) entry.hint = authHint(service, tenant, options.secrets, options.secretsFrom);
      report.unmapped.push(
        `${service} ${operation} → ${config.baseUrl}${template} answers ${answer.status || 'nothing'}${entry.hint ? `: ${entry.hint}` : ''}`,
      );
      continue;
    }
    foundPaths.set(operation, usedTemplate);

    const working = () => mergeOp(op, proposals[operation] ?? {});
    // The envelope: where the list (or item) is.
    const envelope = findEnvelope(answer.body, declared, working());
    entry.envelope = { recognised: envelope.recognised, at: envelope.at };
    if (envelope.propose !== undefined) {
      proposals[operation] = mergeOp(proposals[operation], { envelope: [envelope.propose] });
    }

    const evaluate = () => {
      const shaped = reshapeBody(answer.body, working(), declared.kind);
      const parsed = schema.safeParse(shaped);
      const parsedSample: unknown = parsed.success
        ? declared.kind === 'list'
          ? (parsed.data as { items: unknown[] }).items[0]
          : parsed.data
        : undefined;
      const rawShaped: unknown =
        declared.kind === 'list'
          ? (valueAt(shaped, 'data') as unknown[] | undefined)?.[0]
          : valueAt(shaped, 'data');
      return { parsed, parsedSample, rawShaped };
    };

    if (declared.kind === 'list') {
      proposeListMeta(answer.body, operation, proposals);
      const items = findList(answer.body, working().envelope) ?? [];
      // More items than asked for: the API reads the page size under another name.
      if (items.length > PAGE_SIZE && !pageSizeName) {
        for (const name of PAGE_SIZE_NAMES) {
          const tried = await get(fillPath(usedTemplate, params), {
            ...query,
            [name]: String(PAGE_SIZE),
          });
          const list = tried && findList(tried.body, working().envelope);
          if (list && list.length <= PAGE_SIZE) {
            pageSizeName = name;
            break;
          }
        }
      }
    }
    let state = evaluate();
    const raw =
      declared.kind === 'list'
        ? findList(answer.body, working().envelope)?.[0]
        : findItem(answer.body, working().envelope);
    if (raw === undefined) {
      entry.skipped = 'the list is empty: nothing to check its fields on';
      continue;
    }
    // Where the schema dropped or defaulted a list to empty, the answer's own list is judged.
    const missingOf = (): string[] => {
      if (!state.parsed.success) return missingNeeds(state.rawShaped, declared.needs);
      return declared.needs.filter((need) => {
        const split = need.indexOf('[].');
        const list = valueAt(state.parsedSample, split >= 0 ? need.slice(0, split) : need);
        if (Array.isArray(list) && list.length === 0) {
          const raw = valueAt(state.rawShaped, split >= 0 ? need.slice(0, split) : need);
          return !Array.isArray(raw) || missingNeeds(state.rawShaped, [need]).length > 0;
        }
        return missingNeeds(state.parsedSample, [need]).length > 0;
      });
    };
    // Rounds: a list found in one round shows what its elements lack in the next.
    for (let round = 0, proposed = true; proposed && round < 3; round++) {
      proposed = false;
      for (const need of missingOf()) {
        // An earlier entry (the list a field lives in) may have made it readable.
        if (!missingOf().includes(need)) continue;
        const proposal = proposeField(state.rawShaped ?? raw, need);
        if (!proposal) continue;
        proposals[operation] = mergeOp(proposals[operation], { fields: { [need]: [proposal] } });
        state = evaluate();
        proposed = true;
      }
    }
    const missing = new Set(missingOf());
    const mapped = working().fields ?? {};
    const proposedFields = proposals[operation]?.fields ?? {};
    const read: unknown = state.parsedSample ?? state.rawShaped;
    entry.fields = declared.needs.map((need) => ({
      need,
      found: !missing.has(need),
      path: (proposedFields[need] ?? mapped[need])?.join(' | ') ?? need,
      ...(proposedFields[need] && { proposed: true }),
      sample: missing.has(need) ? undefined : sample(valueAt(read, need.split('[].')[0] ?? need)),
    }));
    if (!state.parsed.success) entry.issues = issuesSummary(state.parsed.error.issues, 3);
    // Unmapped until the profile says it: fields not found, and those only a proposal reads.
    for (const field of entry.fields) {
      if (!field.found) report.unmapped.push(`${service} ${operation} → ${field.need}: not found`);
      else if (field.proposed) {
        report.unmapped.push(
          `${service} ${operation} → ${field.need}: at ${field.path} (proposed)`,
        );
      }
    }
    const proposal = proposals[operation];
    if (proposal?.path)
      report.unmapped.push(`${service} ${operation} → path ${proposal.path} (proposed)`);
    if (proposal?.envelope) {
      report.unmapped.push(
        `${service} ${operation} → envelope ${proposal.envelope.join(' | ')} (proposed)`,
      );
    }
    if (state.parsed.success && state.parsedSample !== undefined)
      samples.set(operation, state.parsedSample);
  }

  if (pageSizeName) {
    for (const [operation, declared] of Object.entries(catalogue)) {
      if (declared.kind !== 'list') continue;
      proposals[operation] = {
        ...proposals[operation],
        rename: { ...proposals[operation]?.rename, per_page: pageSizeName },
      };
    }
  }
  // Writes answer with the resource of their list: they take its field entries (and envelope).
  for (const [write, list] of Object.entries(WRITE_LIKE)) {
    const fields = proposals[list]?.fields;
    if (!(write in catalogue) || !fields) continue;
    const path = write === 'comments.create' ? foundPaths.get(list) : undefined;
    proposals[write] = mergeOp(proposals[write], {
      fields,
      ...(path && path !== catalogue[write]?.path && { path }),
    });
  }
  if (Object.keys(proposals).length > 0) report.proposals[service] = proposals;
  report.calls += calls;
}

function findEnvelope(
  body: unknown,
  declared: OperationNeeds,
  op: OperationProfile,
): { recognised: boolean; at?: string | undefined; propose?: string | undefined } {
  if (declared.kind === 'list') {
    for (const path of op.envelope ?? LIST_ENVELOPES) {
      if (!Array.isArray(valueAt(body, path))) continue;
      // The schemas read these on their own; another place needs the profile to say it.
      const known = op.envelope !== undefined || ['', 'data', 'data.data', 'items'].includes(path);
      return { recognised: true, at: path || '(body)', ...(!known && { propose: path }) };
    }
    // Any top-level array of objects.
    if (body && typeof body === 'object') {
      for (const [key, value] of Object.entries(body)) {
        if (Array.isArray(value)) return { recognised: false, at: key, propose: key };
      }
    }
    return { recognised: false };
  }
  if (op.envelope)
    return { recognised: valueAt(body, op.envelope[0] ?? '') !== undefined, at: op.envelope[0] };
  const record =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  if (record['data'] && typeof record['data'] === 'object') return { recognised: true, at: 'data' };
  // One object inside a one-key answer (`{ "result": {…} }`) is the item.
  const keys = Object.keys(record);
  const only = keys.length === 1 ? keys[0] : undefined;
  if (only && record[only] && typeof record[only] === 'object' && !Array.isArray(record[only])) {
    return { recognised: false, at: only, propose: only };
  }
  return { recognised: true, at: '(body)' };
}

const PAGE_SIZE = 5;
/** Other names of `per_page`, tried when a list gives more than was asked for. */
const PAGE_SIZE_NAMES = ['limit', 'page_size', 'size', 'perPage', 'pageSize'];

/** Page fields of a list, when the answer has none where the schemas look (`meta`, top level). */
const META_CANDIDATES: Record<string, readonly string[]> = {
  total: [
    'paging.count',
    'paging.total',
    'pagination.total',
    'pagination.count',
    'total',
    'count',
    'total_count',
  ],
  current_page: [
    'paging.page',
    'pagination.page',
    'pagination.current_page',
    'page',
    'current_page',
  ],
  last_page: [
    'paging.pages',
    'pagination.pages',
    'pagination.last_page',
    'pagination.total_pages',
    'total_pages',
    'pages',
    'last_page',
  ],
};

function proposeListMeta(
  body: unknown,
  operation: string,
  proposals: Record<string, OperationProfile>,
): void {
  for (const [field, candidates] of Object.entries(META_CANDIDATES)) {
    if (valueAt(body, `meta.${field}`) !== undefined || valueAt(body, field) !== undefined)
      continue;
    const found = candidates.find((path) => {
      const value = valueAt(body, path);
      return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));
    });
    if (found) {
      proposals[operation] = mergeOp(proposals[operation], {
        fields: { [`meta.${field}`]: [found] },
      });
    }
  }
}

/** A source path for `need` in `item` (`a[].b`: inside the first element of the list `a`). */
function proposeField(item: unknown, need: string): string | undefined {
  const split = need.indexOf('[].');
  if (split >= 0) {
    const list = valueAt(item, need.slice(0, split));
    const first: unknown = Array.isArray(list) ? list[0] : undefined;
    return first === undefined ? undefined : candidatePaths(first, need.slice(split + 3))[0]?.path;
  }
  return candidatePaths(item, need).find((candidate) => candidate.path !== need)?.path;
}

function paramsFor(
  operation: string,
  tenant: Tenant,
  samples: Map<string, unknown>,
): Record<string, string> | undefined {
  const from = PARAM_FROM[operation];
  if (from) {
    const value = valueAt(samples.get(from.list), from.field);
    return typeof value === 'string' || typeof value === 'number'
      ? { [from.param]: String(value) }
      : undefined;
  }
  const property = tenant.lodging?.propertyIds[0] ?? '';
  return { id: property, propertyId: property };
}

function queryFor(operation: string, declared: OperationNeeds): Record<string, string> {
  if (operation === 'properties.availability') {
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    return { check_in: day(30), check_out: day(32), guests: '2' };
  }
  return declared.kind === 'list' ? { per_page: '5' } : {};
}

/** The tenant's lodging token, or a login with its e-mail and password (never printed). */
async function lodgingToken(
  tenant: Tenant,
  options: DoctorOptions,
  doFetch: typeof fetch,
): Promise<{ value?: string | undefined; calls: number }> {
  const lodging = tenant.lodging;
  if (!lodging) return { calls: 0 };
  const { lodgingToken: token, lodgingEmail: email, lodgingPassword: password } = options.secrets;
  if (token) return { value: token, calls: 0 };
  if (!email || !password) return { calls: 0 };
  try {
    const response = await doFetch(`${lodging.baseUrl}/auth/login`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const body = (await response.json()) as { token?: string; data?: { token?: string } };
    return { value: body.token ?? body.data?.token, calls: 1 };
  } catch {
    return { calls: 1 };
  }
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const report: DoctorReport = {
    tenant: options.tenant.id,
    at: new Date().toISOString(),
    services: serviceTargets(
      options.tenant,
      options.overrides ?? {},
      options.secrets,
      options.secretsFrom,
    ),
    operations: [],
    proposals: {},
    unmapped: [],
    calls: 0,
  };
  await checkService('publishing', options, report);
  if (options.tenant.features.booking) await checkService('lodging', options, report);
  return report;
}
