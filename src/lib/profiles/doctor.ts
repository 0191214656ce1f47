import { checkService } from './doctor/service.ts';
import { serviceTargets } from './doctor/target.ts';
import type { DoctorOptions, DoctorReport } from './doctor/report.ts';

export type { DoctorOptions, DoctorReport, OperationReport } from './doctor/report.ts';

/**
 * `npm run doctor -- <tenant>`: reads each read operation of the tenant's upstreams once and says,
 * per operation, whether the site can read it: status, envelope, each needed field with where it
 * was found and a sample, the rate-limit headers. Where a path answers 404 it looks where the API
 * says (its index, its records' links) and at the contract's words in every usual spelling
 * (./doctor/path-search.ts); where a field is missing it searches the answer and proposes a profile
 * entry. It never writes to the upstream and never prints a token. The parts are in ./doctor/.
 */

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
