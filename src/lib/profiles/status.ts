import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { logInfo, logWarn } from '../log/log.ts';
import type { Tenant } from '../tenants/schema.ts';
import { operationFindings } from '../upstream/metrics.ts';
import { profileFor } from './for-tenant.ts';
import { SERVICES } from './schema.ts';

/**
 * What `/_status` and the start-up line say about reading each tenant's APIs: the profile in use,
 * the last `npm run doctor` run (saved in `.cache/doctor/<tenant>.json`) and what this process
 * found it could not read.
 */

const DoctorSummarySchema = z.object({
  at: z.string(),
  unmapped: z.array(z.string()),
  /** What the site reads despite (a refused read token): said, though not "not readable". */
  toFix: z.array(z.string()).optional(),
  /** The APIs it read: a summary of other APIs than the tenant's now says nothing about them. */
  services: z.array(z.object({ service: z.enum(SERVICES), baseUrl: z.string() })).optional(),
});
type DoctorSummary = z.output<typeof DoctorSummarySchema>;

/** The saved findings of the last doctor run, or null when it never ran here. */
function readDoctorSummary(tenantId: string, dir = '.cache/doctor'): DoctorSummary | null {
  try {
    const text = readFileSync(join(dir, `${tenantId}.json`), 'utf8');
    return DoctorSummarySchema.safeParse(JSON.parse(text)).data ?? null;
  } catch {
    return null;
  }
}

/** The doctor's last run, unless it read another API than the tenant reads now (moved since). */
function lastRun(tenant: Tenant, summary: DoctorSummary | null): DoctorSummary | null {
  const moved = summary?.services?.some(({ service, baseUrl }) => {
    const now = tenant[service]?.baseUrl;
    return now !== undefined && now !== baseUrl;
  });
  return moved ? null : summary;
}

export function profileStatus(
  tenants: readonly Tenant[],
  readSummary: (id: string) => DoctorSummary | null = readDoctorSummary,
) {
  return tenants.map((tenant) => ({
    tenant: tenant.id,
    publishingProfile: profileFor(tenant, 'publishing')?.name ?? 'none',
    ...(tenant.lodging && { lodgingProfile: profileFor(tenant, 'lodging')?.name ?? 'none' }),
    doctor: lastRun(tenant, readSummary(tenant.id)),
    /** Operations this process could not read (fully) since it started. */
    problems: [
      ...operationFindings(tenant.id),
      // The booking feature's lodging account key.
      ...operationFindings(`tenant:${tenant.id}`),
    ].filter((finding) => finding.state !== 'ok'),
  }));
}

/** One start-up line per tenant: its profiles and what the last doctor run left unmapped. */
export function profileStartupLine(status: ReturnType<typeof profileStatus>[number]): string {
  const profiles = `publishing profile ${status.publishingProfile}${
    status.lodgingProfile ? `, lodging profile ${status.lodgingProfile}` : ''
  }`;
  const doctor = status.doctor
    ? status.doctor.unmapped.length === 0
      ? `doctor ${status.doctor.at.slice(0, 10)}: every needed field readable`
      : `doctor ${status.doctor.at.slice(0, 10)}: ${status.doctor.unmapped.length} not readable (${status.doctor.unmapped.slice(0, 3).join('; ')}${status.doctor.unmapped.length > 3 ? '; …' : ''})`
    : `not checked yet (npm run doctor -- ${status.tenant})`;
  const toFix = status.doctor?.toFix?.length ? `; to fix: ${status.doctor.toFix.join('; ')}` : '';
  return `Tenant "${status.tenant}": ${profiles}; ${doctor}${toFix}.`;
}

let logged = false;

/** Logs `profileStartupLine` once per process for every tenant (a warning while the doctor left work). */
export function logProfileLines(tenants: readonly Tenant[]): void {
  if (logged) return;
  logged = true;
  for (const status of profileStatus(tenants)) {
    const toDo = [...(status.doctor?.unmapped ?? []), ...(status.doctor?.toFix ?? [])];
    const log = toDo.length > 0 ? logWarn : logInfo;
    log('tenant.upstream_profile', { tenant: status.tenant, message: profileStartupLine(status) });
  }
}
