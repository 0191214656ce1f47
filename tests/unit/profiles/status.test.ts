import { afterEach, describe, expect, it } from 'vitest';
import { profileStartupLine, profileStatus } from '../../../src/lib/profiles/status.ts';
import { statusResponse } from '../../../src/lib/delivery/status-access.ts';
import { clearFindings, recordFinding } from '../../../src/lib/upstream/metrics.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

afterEach(() => clearFindings());

const tenant = buildTenant({
  id: 'gazette',
  publishing: { baseUrl: 'https://api.example.com/api/v1', profile: 'publishing-alt' },
});

describe('what the site says about reading a tenant API', () => {
  it('names the profile, the last doctor run and the operations it could not read', () => {
    recordFinding({
      service: 'publishing',
      tenant: 'gazette',
      operation: 'plans.list',
      profile: 'publishing-alt',
      state: 'no-route',
      missing: [],
      status: 404,
    });
    recordFinding({
      service: 'publishing',
      tenant: 'gazette',
      operation: 'posts.list',
      profile: 'publishing-alt',
      state: 'ok',
      missing: [],
    });
    const [status] = profileStatus([tenant], () => ({
      at: '2026-11-23T10:00:00Z',
      unmapped: ['publishing plans.list → path /pricing (proposed)'],
    }));
    expect(status).toMatchObject({
      tenant: 'gazette',
      publishingProfile: 'publishing-alt',
      problems: [{ operation: 'plans.list', state: 'no-route', status: 404 }],
    });
    expect(profileStartupLine(status!)).toBe(
      'Tenant "gazette": publishing profile publishing-alt; doctor 2026-11-23: 1 not readable (publishing plans.list → path /pricing (proposed)).',
    );
  });

  it('names what the doctor left to fix although every field is readable (a refused read token)', () => {
    const refused =
      'publishing: the read token from SECRETS_FILE was refused: check publishingReadToken; until then the site reads without it';
    const [status] = profileStatus([tenant], () => ({
      at: '2026-11-23T10:00:00Z',
      unmapped: [],
      toFix: [refused],
    }));
    expect(profileStartupLine(status!)).toBe(
      `Tenant "gazette": publishing profile publishing-alt; doctor 2026-11-23: every needed field readable; to fix: ${refused}.`,
    );
  });

  it('asks for a doctor run again when the tenant reads another API than the last one checked', () => {
    const [status] = profileStatus([tenant], () => ({
      at: '2026-11-23T10:00:00Z',
      unmapped: [],
      services: [{ service: 'publishing', baseUrl: 'https://old-api.example.com/api/v1' }],
    }));
    expect(profileStartupLine(status!)).toBe(
      'Tenant "gazette": publishing profile publishing-alt; not checked yet (npm run doctor -- gazette).',
    );
  });

  it('asks for a doctor run when none was made', () => {
    const [status] = profileStatus([buildTenant()], () => null);
    expect(profileStartupLine(status!)).toBe(
      'Tenant "gazette": publishing profile none; not checked yet (npm run doctor -- gazette).',
    );
  });

  it('names the default lodging profile the site reads with when the tenant names none', () => {
    const booking = buildTenant({
      lodging: {
        baseUrl: 'https://rooms.example.com/api/v1',
        propertyIds: ['6f1c1a52-3a55-4e0e-9d7b-3c2a51f00001'],
      },
      features: { booking: true },
    });
    const [status] = profileStatus([booking], () => null);
    expect(status).toMatchObject({ publishingProfile: 'none', lodgingProfile: 'lodging-default' });
    expect(profileStartupLine(status!)).toContain(
      'publishing profile none, lodging profile lodging-default;',
    );
  });

  it('/_status carries the same findings for every tenant', async () => {
    const response = await statusResponse({
      local: true,
      headers: new Headers(),
      token: undefined,
      redisUrl: undefined,
    });
    const body = (await response.json()) as { profiles: { tenant: string }[] };
    expect(body.profiles.map((p) => p.tenant)).toEqual([
      'daily-planet',
      'harbour-times',
      'alpine-post',
    ]);
  });
});
