import { smtpMailer, type Mailer } from '../booking/mail/mailer.ts';
import { bookingService } from '../booking/service/service.ts';
import type { BookingService } from '../booking/service/service.ts';
import { bookingMemory, memoryScope } from '../booking/service/core.ts';
import { profileFor } from '../profiles/for-tenant.ts';
import { publishingClient, type PublishingClient } from '../publishing/client.ts';
import { memo } from '../memo.ts';
import { settings } from '../settings/settings.ts';
import { snapshotPath } from '../static/mode.ts';
import { loadSnapshot, snapshotClient } from '../static/snapshot.ts';
import type { Tenant } from '../tenants/schema.ts';
import { createUpstream } from '../upstream/runtime.ts';
import { diskCacheDir } from '../upstream/disk-store.ts';
import { createMetrics } from '../upstream/metrics.ts';
import { budgetKeys, limitsFrom } from '../upstream/budget.ts';
import type { BudgetKey } from '../upstream/budget.ts';
import { getTenants } from '../tenants/registry.ts';
import { tenantSecrets } from '../secrets/site.ts';
import { lodgingCredentials } from '../secrets/tenant.ts';
import { readBudgetsWith, upstreamSink } from '../observability/prometheus.ts';
import type { BudgetReading } from '../observability/prometheus.ts';
import type { Upstream } from '../upstream/runtime.ts';

/**
 * The one place the running site wires its upstream clients: one upstream per process (budget,
 * cache, metrics) from the settings, and per tenant its publishing client and booking service (the
 * only holder of its lodging client) with the credentials tenants.json names. Features call these;
 * tests, benches and the static build make their own `Upstream` and clients and never import this.
 */

let instance: Upstream | undefined;

/** Created on first use, from the settings (their defaults are in `settings/schema.ts`). */
export function siteUpstream(): Upstream {
  const current = settings();
  if (instance) return instance;
  const created = createUpstream({
    metrics: createMetrics({ sink: upstreamSink }),
    redisUrl: current.REDIS_URL,
    cache: {
      maxSizeBytes: current.UPSTREAM_CACHE_MAX_BYTES,
      redisUrl: current.CACHE_REDIS_URL,
      diskDir: diskCacheDir(current),
      diskMaxBytes: current.UPSTREAM_CACHE_DISK_MAX_BYTES,
      notFoundSeconds: current.UPSTREAM_NOT_FOUND_SECONDS,
    },
    http: { timeoutMs: current.UPSTREAM_TIMEOUT_MS, maxBodyBytes: current.UPSTREAM_BODY_MAX_BYTES },
    limits: limitsFrom(current),
    safetyRatio: current.UPSTREAM_BUDGET_RATIO,
    visitorShare: current.UPSTREAM_VISITOR_SHARE,
    humanReserve: current.UPSTREAM_HUMAN_RESERVE,
    lodgingSearchShare: current.UPSTREAM_LODGING_SEARCH_SHARE,
    bookingReserve: current.UPSTREAM_BOOKING_RESERVE,
    writeReserve: current.UPSTREAM_WRITE_RESERVE,
    pageDeadlineMs: current.PAGE_DEADLINE_MS,
  });
  readBudgetsWith(() => budgetReadings(created));
  instance = created;
  return created;
}

/** The publishing budget each tenant's anonymous pages spend: its read token's, or the shared one. */
export function publishingBudgetKey(tenant: Tenant): BudgetKey {
  const token = tenantSecrets(tenant).values.publishingReadToken;
  return token
    ? budgetKeys.publishingToken(tenant.publishing.baseUrl, tenant.id, token)
    : budgetKeys.publishingPublic(tenant.publishing.baseUrl);
}

/** Every tenant's publishing budget left, for the metrics (a shared bucket shows under each tenant). */
function budgetReadings(up: Upstream): Promise<BudgetReading[]> {
  return Promise.all(
    getTenants().map(async (tenant) => {
      const key = publishingBudgetKey(tenant);
      const { remaining } = await up.budget.standing(key).catch(() => ({ remaining: Number.NaN }));
      return { tenant: tenant.id, bucket: key.kind, remaining };
    }),
  );
}

// One anonymous client per tenant object and read token, not a new one per call (several a render).
const anonymousClients = memo((tenant: Tenant) =>
  memo(
    (serviceToken: string) =>
      publishingClient({
        tenantId: tenant.id,
        baseUrl: tenant.publishing.baseUrl,
        serviceToken: serviceToken || undefined,
        upstream: siteUpstream(),
        iframeHosts: tenant.publishing.embedHosts,
        profile: profileFor(tenant, 'publishing'),
      }),
    { max: 2 },
  ),
);

/** The tenant's publishing client for anonymous reads (with the tenant's read token when one is configured). */
export function publishingFor(tenant: Tenant, userToken?: string): PublishingClient {
  // A static build renders from what it fetched before: no upstream call while rendering.
  const snapshot = snapshotPath();
  if (snapshot) return snapshotClient(loadSnapshot(snapshot));
  // Looked up per call: a read token added to SECRETS_FILE is used without a restart.
  const client = anonymousClients(tenant)(tenantSecrets(tenant).values.publishingReadToken ?? '');
  return userToken ? client.withToken(userToken) : client;
}

let mailer: Mailer | undefined;

/** The site's mail server for guests' e-mails (`SMTP_*`), or undefined when none is set. */
export function siteMailer(): Mailer | undefined {
  const { SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASSWORD, SMTP_FROM } = settings();
  if (!SMTP_HOST) return undefined;
  mailer ??= smtpMailer({
    host: SMTP_HOST,
    port: SMTP_PORT,
    user: SMTP_USER,
    password: SMTP_PASSWORD,
    from: SMTP_FROM,
  });
  return mailer;
}

// Per tenant id and lodging API (`memoryScope`): a reload that changes the tenant mid-booking (a new
// service) keeps what it knows of the attempts under way (a second submit, another tab's same stay)
// and their lock, without Redis too.
const bookingMemoryOf = memo((scope: string) => bookingMemory(scope, settings().REDIS_URL), {
  max: 1000,
});

/**
 * The process-wide booking service of a tenant (its freshness memory lives here; its idempotency
 * memory and lock per tenant id and lodging API, above), wired to the site's upstream and the tenant's credentials.
 * Pages and endpoints use this one. Per tenant object: a reload of the tenants file makes new
 * objects of the tenants it changed.
 */
export const bookingServiceFor: (tenant: Tenant) => BookingService = memo((tenant: Tenant) =>
  bookingService(tenant, {
    upstream: siteUpstream(),
    // Read per call: SECRETS_FILE, else the variables the tenant's lodging section names.
    credentials: () => lodgingCredentials(tenantSecrets(tenant)),
    redisUrl: settings().REDIS_URL,
    mailer: siteMailer(),
    memory: tenant.lodging && bookingMemoryOf(memoryScope(tenant.id, tenant.lodging)),
  }),
);
