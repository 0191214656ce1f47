import { valueAt } from '../../upstream/parse.ts';
import { renameKeys } from '../../upstream/profile.ts';
import type { OperationProfile } from '../../upstream/profile.ts';
import type { Declared } from '../../upstream/client-core.ts';
import type { DoctorOptions, DoctorReport, OperationReport, ServiceRun } from './report.ts';
import { authHint, serviceTargets } from './target.ts';
import { CATALOGUES, mergeOp, resolveProfile } from '../schema.ts';
import { settingDefaults } from '../../settings/schema.ts';
import type { ProfileService } from '../schema.ts';
import { createGetter, lodgingToken } from './http.ts';
import { PAGE_SIZE, inspectAnswer } from './inspect.ts';
import { indexReader, searchPath } from './path-search.ts';

/**
 * `npm run doctor -- <tenant>`: reads each read operation of the tenant's upstreams once and says
 * whether the site can read it; a path answering 404 is searched for (./path-search.ts), a
 * missing field too (./inspect.ts), each with a proposed profile entry. It never writes to
 * the upstream and never prints a token.
 */

/**
 * Writes go where their list was found (`suffix`: what follows the list's path), and those that
 * answer with the list's resource read its fields as the list does.
 */
const WRITES: Record<string, { list: string; suffix?: string; resource?: false }> = {
  'bookings.create': { list: 'bookings.list' },
  'guests.create': { list: 'guests.list' },
  'bookings.cancel': { list: 'bookings.list', suffix: '/{id}', resource: false },
  'comments.create': { list: 'comments.list' },
};

function paramsFor(run: ServiceRun, operation: string, declared: Declared) {
  const param = /\{(\w+)\}/.exec(declared.path)?.[1];
  if (run.service === 'publishing' && param) {
    // A detail read takes its slug from the list read before it (comments: the post list's).
    const list = param === 'postSlug' ? 'posts.list' : operation.replace(/\.get$/, '.list');
    const value = valueAt(run.samples.get(list), 'slug');
    return typeof value === 'string' || typeof value === 'number'
      ? { [param]: String(value) }
      : undefined;
  }
  const property = run.options.tenant.lodging?.propertyIds[0] ?? '';
  return { id: property, propertyId: property };
}

const daysAhead = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

function queryFor(run: ServiceRun, operation: string, declared: Declared): Record<string, string> {
  const { stay } = run.evidence;
  if (operation === 'properties.availability' && stay)
    return { check_in: stay.from, check_out: stay.to, guests: '2' };
  return declared.kind === 'list' ? { per_page: String(PAGE_SIZE) } : {};
}

/** Upstream calls per service at most (the anonymous publishing budget is 60 a minute). */
const MAX_CALLS = 120;

async function checkOperation(run: ServiceRun, operation: string, declared: Declared) {
  const { service, options, report } = run;
  const op: OperationProfile | undefined = run.profile?.operations[operation];
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
  const params = paramsFor(run, operation, declared);
  if (params === undefined) {
    entry.path = op?.path ?? declared.path;
    entry.skipped = 'no item to read it with (its list was empty or unreadable)';
    return;
  }
  // What --map settles goes in as a proposal: checked, reported and saved like the doctor's own.
  const settled = options.maps?.[service]?.[operation];
  if (settled) run.proposals[operation] = mergeOp(run.proposals[operation], settled);
  const query = renameKeys(queryFor(run, operation, declared), op?.rename) ?? {};
  const template = settled?.path ?? op?.path ?? declared.path;
  const check = { operation, declared, op, entry, params, query, template };
  const found = await searchPath(run, check);
  entry.tried = found.tried;
  const { answer } = found;
  if (!answer) {
    entry.skipped = `not read: the doctor's budget of ${MAX_CALLS} calls is spent`;
    return;
  }
  entry.path = found.template;
  if (settled?.path) entry.notAt = op?.path ?? declared.path;
  if (found.template !== template) {
    entry.notAt = template;
    run.proposals[operation] = mergeOp(run.proposals[operation], { path: found.template });
  }
  entry.status = answer.status;
  entry.rateLimit = answer.rateLimit;
  entry.reachable = answer.status > 0;
  if (answer.problem || answer.status < 200 || answer.status >= 300) {
    if (answer.problem) entry.hint = answer.problem;
    else if (answer.status === 401 || answer.status === 403) entry.hint = run.authHint;
    // Said once for all the operations answered alike (a missing token refuses every one).
    const why = `answers ${answer.status || 'nothing'}${entry.hint ? `: ${entry.hint}` : ''}`;
    run.failed.set(why, [...(run.failed.get(why) ?? []), operation]);
    return;
  }
  run.found.set(operation, found.template);
  await inspectAnswer(run, { ...check, answer });
}

/** Proposals that follow from all reads: the page size's name, writes where their lists are. */
function finishService(run: ServiceRun): void {
  const { proposals } = run;
  const catalogue = CATALOGUES[run.service];
  if (run.pageSizeName) {
    for (const [operation, declared] of Object.entries(catalogue)) {
      if (declared.kind !== 'list') continue;
      proposals[operation] = mergeOp(proposals[operation], {
        rename: { per_page: run.pageSizeName },
      });
    }
  }
  for (const [write, { list, suffix = '', resource = true }] of Object.entries(WRITES)) {
    if (!(write in catalogue)) continue;
    // A list found elsewhere than the site reads it takes its writes along.
    const moved = proposals[list]?.path;
    const path = moved && `${moved}${suffix}`;
    const fields = resource ? proposals[list]?.fields : undefined;
    if (path || fields)
      proposals[write] = mergeOp(proposals[write], {
        ...(path && { path }),
        ...(fields && { fields }),
      });
  }
  // What --map settles of an operation the doctor does not read (a write) is taken as it is.
  for (const [operation, settled] of Object.entries(run.options.maps?.[run.service] ?? {}))
    if (!catalogue[operation]?.read) proposals[operation] = mergeOp(proposals[operation], settled);
  if (Object.keys(proposals).length > 0) run.report.proposals[run.service] = proposals;
  for (const [why, operations] of run.failed)
    run.report.unmapped.push(`${run.service} ${operations.join(', ')} → ${run.baseUrl} ${why}`);
  // The site sends its token (and its writes) to the address it is given, never across origins.
  // The operator's to fix, like a refused token: what cannot be read without them is named above.
  const { movedTo: moved, tokenRefused, calls } = run.getter.state;
  const target = run.report.services.find((known) => known.service === run.service);
  const from = target?.from ?? `${run.service}.baseUrl`;
  if (moved)
    run.report.toFix.push(
      `${run.service}: ${run.baseUrl} redirects to ${moved}, where the site sends no token and no write: use ${moved} in ${from}`,
    );
  if (tokenRefused)
    run.report.toFix.push(
      `${run.service}: ${run.authHint}; until then the site reads without it, on the anonymous budget all tenants share`,
    );
  run.report.calls += calls;
}

/** One service's reads, in order (details after the lists that give their parameters). */
async function checkService(
  service: ProfileService,
  options: DoctorOptions,
  report: DoctorReport,
): Promise<void> {
  const { tenant } = options;
  const config = tenant[service];
  if (!config) return;
  const settings = {
    fetch: options.fetch ?? fetch,
    timeoutMs: options.timeoutMs ?? settingDefaults.UPSTREAM_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes ?? settingDefaults.UPSTREAM_BODY_MAX_BYTES,
  };
  const token =
    service === 'publishing'
      ? { value: options.secrets.publishingReadToken, calls: 0 }
      : await lodgingToken(tenant, options.secrets, settings);
  const getter = createGetter({
    ...settings,
    baseUrl: config.baseUrl,
    headers: {
      Accept: 'application/json',
      ...(service === 'publishing' && { 'X-Tenant': tenant.id }),
    },
    token: token.value,
    // Public reads need no token: the site goes on without a refused one (publishing/client.ts).
    readsWithoutToken: service === 'publishing',
    maxCalls: MAX_CALLS,
    // The lodging sign-in counts against the budget.
    spent: token.calls,
  });
  const from = report.services.find((known) => known.service === service)?.from;
  if (token.refused)
    report.unmapped.push(
      `${service} auth.login → ${token.refused}: set ${from} to where the API answers`,
    );
  const run: ServiceRun = {
    service,
    options,
    report,
    baseUrl: config.baseUrl,
    profile: resolveProfile(service, config.profile, options.profiles),
    proposals: {},
    found: new Map(),
    failed: new Map(),
    samples: new Map(),
    rawItems: new Map(),
    evidence: {
      ids: { property: new Set(tenant.lodging?.propertyIds ?? []) },
      // The stay availability is asked for (and its answer judged by): two nights, a month ahead.
      stay: { from: daysAhead(30), to: daysAhead(32), nights: 2 },
    },
    getter,
    index: indexReader(getter.get, config.baseUrl),
    // What to say when the API refuses the doctor (401, 403): why no token came, or what to set.
    authHint: token.refused
      ? 'no token: the sign-in was redirected (see auth.login)'
      : token.failed
        ? `no token: ${token.failed}`
        : authHint(service, tenant, options.secrets, options.secretsFrom),
  };
  for (const [operation, declared] of Object.entries(CATALOGUES[service])) {
    if (declared.read) await checkOperation(run, operation, declared);
  }
  finishService(run);
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
    toFix: [],
    calls: 0,
  };
  await checkService('publishing', options, report);
  if (options.tenant.features.booking) await checkService('lodging', options, report);
  return report;
}
