import { it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor.ts';
import { readProfileTexts } from '../../../src/lib/profiles/files.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { THIRD_PROPERTY, THIRD_TOKEN, startThirdApi } from '../../fixtures/third-api.ts';

it('scratch', async () => {
  const api = await startThirdApi();
  const tenant = buildTenant({
    id: 'third-times',
    publishing: { baseUrl: api.publishingUrl },
    lodging: { baseUrl: api.lodgingUrl, tokenEnv: 'T', propertyIds: [THIRD_PROPERTY] },
    features: { booking: true },
  });
  const report = await runDoctor({ tenant, profiles: readProfileTexts(), env: { T: THIRD_TOKEN } });
  for (const o of report.operations) console.log(o.operation, o.status, o.path, o.envelope.at, o.skipped ?? "", o.issues ?? "", o.fields.filter((f) => !f.found).map((f) => f.need).join(","));
  console.log(JSON.stringify(report.proposals), report.unmapped, report.calls);
  await api.close();
});
