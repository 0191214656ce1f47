import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../../mock/index.ts';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import { readProfileTexts } from '../../../src/lib/profiles/files.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { demo } from '../harness.ts';

type Mock = Awaited<ReturnType<typeof startMock>>;

// The doctor on the mock's own dialects: with the built-in profile, and with none (lenient reading).
describe.each(['default', 'alt'] as const)('the doctor on the %s dialect', (dialect) => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await startMock({
      publishingPort: 0,
      lodgingPort: 0,
      controlPort: 0,
      dialect,
      limits: { publicPerMinute: 0, lodgingPerMinute: 0 },
    });
  });
  afterAll(() => mock.close());

  const tenant = (profile: boolean) =>
    buildTenant({
      id: 'harbour-times',
      publishing: {
        baseUrl: mock.publishingUrl,
        ...(profile && { profile: `publishing-${dialect}` }),
      },
      lodging: {
        baseUrl: mock.lodgingUrl,
        tokenEnv: 'LODGING_TOKEN',
        propertyIds: ['f288dd17-9e1e-5421-8b43-5674c8a96975'],
        ...(profile && { profile: `lodging-${dialect}` }),
      },
      features: { booking: true },
    });

  it.each([true, false])(
    'reads every operation and field (built-in profile: %s)',
    async (profile) => {
      const report = await runDoctor({
        tenant: tenant(profile),
        profiles: readProfileTexts(),
        secrets: { lodgingToken: demo.lodging['harbour-hotels']!.readToken },
      });
      // Lenient reading covers the alt dialect but for the editions' own names: the profile has them.
      expect(report.unmapped).toEqual(
        dialect === 'alt' && !profile
          ? [
              'publishing epaper.list → published_at: at issue_date (proposed)',
              'publishing epaper.list → cover_image_url: at cover_image (proposed)',
            ]
          : [],
      );
      expect(report.operations.filter((o) => o.skipped)).toEqual([]);
      expect(report.operations.map((o) => o.status)).toEqual(report.operations.map(() => 200));
      expect(report.calls).toBeLessThan(40);
    },
  );

  it("shows a guest's name and e-mail masked, never whole (the report is also saved to disk)", async () => {
    const report = await runDoctor({
      tenant: tenant(true),
      profiles: readProfileTexts(),
      secrets: { lodgingToken: demo.lodging['harbour-hotels']!.readToken },
    });
    const guests = report.operations.find((o) => o.operation === 'guests.list');
    const samples = new Map(guests?.fields.map((field) => [field.need, field.sample]));
    expect(samples.get('email')).toMatch(/^\w…@[\w.-]+$/);
    expect(samples.get('first_name')).toMatch(/^\w…$/);
    expect(samples.get('last_name')).toMatch(/^\w…$/);
  });
});
