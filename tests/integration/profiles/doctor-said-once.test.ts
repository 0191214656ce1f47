import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import { doctorLines } from '../../../src/lib/profiles/doctor/lines.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { startDoctorMock, type Mock } from './doctor-mock.ts';

// A rotated publishing read token (the site reads on without it) and no lodging credentials (every
// lodging read answers 401): what the operator reads must be true, and each thing said once.
let mock: Mock;
beforeAll(async () => {
  mock = await startDoctorMock();
});
afterAll(() => mock.close());

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the doctor says each thing once, under a heading that is true', () => {
  it('a refused read token it reads on without is not under "Not readable yet"', async () => {
    const report = await runDoctor({
      tenant: buildTenant({ id: 'daily-planet', publishing: { baseUrl: mock.publishingUrl } }),
      profiles: new Map(),
      secrets: { publishingReadToken: 'rotated-long-ago' },
      secretsFrom: { publishingReadToken: 'SECRETS_FILE' },
    });
    const text = doctorLines(report).join('\n');
    expect(text).not.toContain('Not readable yet');
    expect(text).toContain('Every operation and field the site needs is readable.');
    expect(count(text, 'the read token from SECRETS_FILE was refused')).toBe(1);
  });

  it('the missing lodging token is named once, not once per operation it refused', async () => {
    const report = await runDoctor({
      tenant: buildTenant({
        id: 'daily-planet',
        publishing: { baseUrl: mock.publishingUrl },
        lodging: {
          baseUrl: mock.lodgingUrl,
          propertyIds: ['00000000-0000-4000-8000-000000000001'],
        },
        features: { booking: true },
      }),
      profiles: new Map(),
      secrets: {},
    });
    const text = doctorLines(report).join('\n');
    expect(count(text, 'no lodging token: set lodgingToken for "daily-planet"')).toBe(1);
    // Every refused operation is still named.
    for (const operation of ['properties.list', 'properties.availability'])
      expect(text).toMatch(new RegExp(`✗ lodging ${operation}: GET \\S+ → 401`));
    expect(text).toContain('Not readable yet');
  });
});
