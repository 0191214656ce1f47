import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import { doctorLines } from '../../../src/lib/profiles/doctor/lines.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { startDoctorMock, type Mock } from './doctor-mock.ts';

// A read token the publishing API no longer knows (rotated, revoked): the site reads its public
// content without it (src/lib/publishing/client.ts), so the doctor checks what the site would read.
let mock: Mock;
beforeAll(async () => {
  mock = await startDoctorMock();
});
afterAll(() => mock.close());

describe('the doctor with a publishing read token the API refuses', () => {
  it('reads on without it, as the site does, and names the token to replace once', async () => {
    const report = await runDoctor({
      tenant: buildTenant({ id: 'daily-planet', publishing: { baseUrl: mock.publishingUrl } }),
      profiles: new Map(),
      secrets: { publishingReadToken: 'rotated-long-ago' },
      secretsFrom: { publishingReadToken: 'SECRETS_FILE' },
    });
    // Every list and item checked (not "skipped: no item to read it with").
    expect(report.operations.filter((o) => o.skipped)).toEqual([]);
    expect(report.operations.map((o) => o.status)).toEqual(report.operations.map(() => 200));
    expect(report.unmapped).toEqual([]);
    expect(report.toFix).toEqual([
      'publishing: the read token from SECRETS_FILE was refused: check publishingReadToken for "daily-planet" in SECRETS_FILE, or a variable named in tenants.json publishing.tokenEnv; until then the site reads without it, on the anonymous budget all tenants share',
    ]);
    expect(doctorLines(report).join('\n')).not.toContain('→ 401');
  });
});
