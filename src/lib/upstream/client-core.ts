import type { z } from 'zod';
import type { BudgetKey } from './budget.ts';
import { cacheKey } from './cache.ts';
import type { ReadOptions } from './cache.ts';
import { InvalidResponseError, NoRouteError, NotFoundError } from './errors.ts';
import { recordFinding, type OperationFinding } from './metrics.ts';
import type { UpstreamService } from './errors.ts';
import { sendRequest } from './http.ts';
import type { HttpMethod, UpstreamRequest } from './http.ts';
import { parseOrThrow, valueAt, type DroppedItem } from './parse.ts';
import { fillPath, missingNeeds, profiledRequest, reshapeBody } from './profile.ts';
import type { OperationNeeds, ServiceProfile } from './profile.ts';
import type { Upstream } from './runtime.ts';
import type { CachePolicy } from './ttl.ts';

/**
 * What every upstream client shares: one call (budget, retries, zod parse) and one cached read
 * (key per service, tenant, API, operation, identity and parameters). A service file only says
 * how it authorizes (`ServiceAccess`) and declares its operations with `call` and `read`. Writes
 * are never cached and invalidate nothing: read again with `{ fresh: true }` where a change must
 * show at once. Operations the site does not use live in tests/integration/operations.ts.
 */

/** `public`: one copy for every visitor. `personal`: sent with the caller's own token, cached per user. */
export type Access = 'public' | 'personal';

/** The part that differs between services: tokens, budgets and whose cached copy a read is. */
export interface ServiceAccess {
  /** Runs `send` with the token this call carries (or none). */
  withToken<T>(
    call: { access: Access; method: HttpMethod },
    send: (token: string | undefined) => Promise<T>,
  ): Promise<T>;
  /** The budget a call sent with `token` spends. */
  budgetKey(token: string | undefined): BudgetKey;
  /** Hashed into the cache key; `undefined` means one shared copy. */
  cacheIdentity(access: Access): string | undefined;
}

export interface ClientCoreOptions {
  service: UpstreamService;
  /** Publishing tenant id or lodging account key: in every cache key, metric and log line. */
  tenant: string;
  /** The `/api/v1` base address. */
  baseUrl: string;
  /** Shared budget, cache and metrics (the site's: `siteUpstream()`). */
  upstream: Upstream;
  access: ServiceAccess;
  /** Sent on every call (e.g. publishing's `X-Tenant`). */
  headers?: Record<string, string> | undefined;
  /** What each operation is and needs (the client's declaration, e.g. `PUBLISHING_OPERATIONS`). */
  operations?: Readonly<Record<string, OperationNeeds>> | undefined;
  /** How this tenant's API spells them (`publishing.profile`, `lodging.profile`); none: as declared. */
  profile?: ServiceProfile | undefined;
}

/** What a service client takes as the core does. */
export type CoreOptions = Pick<ClientCoreOptions, 'baseUrl' | 'upstream' | 'profile'>;

export interface CallSpec<S extends z.ZodType> extends Pick<UpstreamRequest, 'query' | 'body'> {
  /** Stable name for logs, metrics and cache keys, e.g. `posts.get`. */
  operation: string;
  /** The response body's shape; a mismatch throws `InvalidResponseError`. */
  schema: S;
  /** Default: the declared operation's method, else GET. */
  method?: HttpMethod | undefined;
  /**
   * Relative to the base address. Default: the declared operation's path (`operations.ts`) with its
   * `{param}` placeholders filled from `params`; an undeclared operation builds it with `urlPath`.
   */
  path?: string | undefined;
  /** Path parameters by name, for the `{param}` placeholders of the declared or profiled path. */
  params?: Record<string, unknown> | undefined;
  /** Default `public`. */
  access?: Access | undefined;
}

export interface ReadSpec<S extends z.ZodType, T> extends Omit<CallSpec<S>, 'method' | 'body'> {
  ttl: CachePolicy;
  /** Shapes the parsed body (sanitizing, paging) before it is cached; the body itself when absent. */
  map?: ((parsed: z.output<S>) => T) | undefined;
}

export type { ReadOptions } from './cache.ts';

export type ClientCore = ReturnType<typeof clientCore>;

/** A path with every interpolated value URL-encoded: urlPath`/posts/${slug}`. */
export function urlPath(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce((path, part, i) => path + encodeURIComponent(String(values[i - 1])) + part);
}

export function clientCore(options: ClientCoreOptions) {
  const { service, tenant, baseUrl, upstream, access } = options;

  /** One upstream call, never cached (writes, sign-in). */
  const call = <S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> => {
    const { operation, query, body, params } = spec;
    const declared = options.operations?.[operation];
    const op = options.profile?.operations[operation];
    const kind = declared?.kind ?? 'item';
    const path = spec.path ?? (declared && fillPath(declared.path, params ?? {}));
    if (path === undefined) throw new TypeError(`${service} ${operation}: no path declared`);
    // A `.` or `..` value (a slug from the address) is a dot segment the URL resolves, which would
    // send the call, token and all, to another endpoint: no such item instead.
    if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path.split('?')[0] ?? '')) {
      const context = { service, operation, status: 404 };
      return Promise.reject(new NotFoundError(`${service} ${operation}: no such item`, context));
    }
    const method = spec.method ?? declared?.method ?? 'GET';
    const request = profiledRequest({ method, path, query, body, params }, op);
    const context = { service, operation };
    /** What `/_status` learns of a declared operation's answers. */
    const note = (finding: Pick<OperationFinding, 'state' | 'missing' | 'status' | 'issues'>) => {
      const profile = options.profile?.name ?? 'default';
      if (declared) recordFinding({ ...context, tenant, profile, ...finding });
    };
    /** The answer as the schema reads it (the profile's reshaping); a mismatch counted and thrown. */
    const parse = (answer: unknown): z.output<S> => {
      const dropped = (item: DroppedItem) => upstream.metrics.dropped(tenant, context, item);
      try {
        return parseOrThrow(spec.schema, reshapeBody(answer, op, kind), { ...context, dropped });
      } catch (error) {
        if (error instanceof InvalidResponseError) upstream.metrics.failure(tenant, error);
        throw error;
      }
    };
    return access.withToken(
      { access: spec.access ?? 'public', method: request.method },
      async (token) => {
        try {
          const answer = await sendRequest(upstream, {
            ...context,
            tenant,
            baseUrl,
            ...request,
            ...(options.headers && { headers: options.headers }),
            token,
            budgetKey: access.budgetKey(token),
          });
          const parsed = parse(answer);
          if (declared) {
            const sample = kind === 'list' ? valueAt(parsed, 'items.0') : parsed;
            const missing = sample === undefined ? [] : missingNeeds(sample, declared.needs);
            note({ state: missing.length ? 'missing-fields' : 'ok', missing, status: 200 });
          }
          return parsed;
        } catch (error) {
          if (error instanceof InvalidResponseError)
            note({ state: 'unreadable', missing: [], issues: error.issues });
          // A list that is not there is a path this API spells otherwise (an item may just be gone).
          if (declared && kind === 'list' && error instanceof NotFoundError) {
            note({ state: 'no-route', missing: [], status: 404 });
            throw new NoRouteError(`${error.message} (run: npm run doctor -- ${tenant})`, {
              ...context,
              status: 404,
              cause: error,
            });
          }
          throw error;
        }
      },
    );
  };

  /**
   * A GET through the read cache (key per service, tenant, API, operation, identity and parameters):
   * the upstream is called only on a miss or refresh.
   */
  const read = <S extends z.ZodType, T = z.output<S>>(
    spec: ReadSpec<S, T>,
    readOptions: ReadOptions = {},
  ): Promise<T> => {
    const key = cacheKey({
      service,
      tenant,
      api: baseUrl,
      operation: spec.operation,
      params: { ...spec.params, ...spec.query },
      token: access.cacheIdentity(spec.access ?? 'public'),
    });
    const load = async () => {
      const parsed = await call(spec);
      // Without `map`, `T` is its default, the parsed body.
      return spec.map ? spec.map(parsed) : (parsed as T);
    };
    return upstream.cache.read(key, spec.ttl, load, { service, tenant }, readOptions);
  };

  return { upstream, call, read };
}

/** An operation as a client declares it: what it needs, the schema it is read with, its cache lifetime. */
export type Declared = OperationNeeds & { schema: z.ZodType; ttl?: CachePolicy };

/**
 * A client's reads and calls by operation name: schema, path and lifetime come from
 * its declaration; `spec` adds parameters, a query, a `map` or another lifetime.
 */
export function declaredCore<O extends { [K in keyof O]: Declared }>(
  core: ClientCore,
  operations: O,
) {
  return {
    read: <K extends keyof O & string, T = z.output<O[K]['schema']>>(
      operation: K,
      spec: Partial<ReadSpec<O[K]['schema'], T>> = {},
      readOptions?: ReadOptions,
    ): Promise<T> => {
      const schema: O[K]['schema'] = operations[operation].schema;
      const ttl = spec.ttl ?? operations[operation].ttl;
      if (!ttl) throw new TypeError(`${operation}: no cache lifetime declared`);
      return core.read<O[K]['schema'], T>({ operation, schema, ...spec, ttl }, readOptions);
    },
    call: <K extends keyof O & string>(
      operation: K,
      spec: Partial<CallSpec<O[K]['schema']>> = {},
    ): Promise<z.output<O[K]['schema']>> =>
      core.call<O[K]['schema']>({ operation, schema: operations[operation].schema, ...spec }),
  };
}
