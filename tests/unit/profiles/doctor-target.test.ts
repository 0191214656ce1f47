import { describe, expect, it } from 'vitest';
import { authHint, serviceTargets, targetLine } from '../../../src/lib/profiles/doctor/target.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const tenant = buildTenant({
  id: 'quay',
  publishing: { baseUrl: 'https://news.example.com/api/v1', tokenEnv: 'QUAY_READ_TOKEN' },
  lodging: {
    baseUrl: 'https://rooms.example.com/api/v1',
    tokenEnv: 'QUAY_LODGING_TOKEN',
    propertyIds: ['6f1c1a52-3a55-4e0e-9d7b-3c2a51f00001'],
  },
  features: { booking: true },
});

describe('which API the doctor reads', () => {
  it('names each address and where it came from: the override setting or the tenants file', () => {
    const lines = serviceTargets(tenant, { LODGING_BASE_URL: 'https://x.test/api/v1' }, {}).map(
      targetLine,
    );
    expect(lines).toEqual([
      'publishing API: https://news.example.com/api/v1 (from tenants.json publishing.baseUrl) · anonymous (no publishingReadToken)',
      'lodging API: https://rooms.example.com/api/v1 (from LODGING_BASE_URL) · no credentials (no lodgingToken)',
    ]);
  });

  it('says where a token came from, never its value', () => {
    const [, lodging] = serviceTargets(
      tenant,
      {},
      { lodgingToken: 'secret-value' },
      { lodgingToken: 'QUAY_LODGING_TOKEN' },
    );
    expect(lodging?.auth).toBe('token from QUAY_LODGING_TOKEN');
    expect(JSON.stringify(lodging)).not.toContain('secret-value');
  });
});

describe('what to set when an API refuses the doctor', () => {
  it('no lodging token: the secret and the variable tenants.json names', () => {
    expect(authHint('lodging', tenant, {})).toBe(
      'no lodging token: set lodgingToken for "quay" in SECRETS_FILE, or the variable QUAY_LODGING_TOKEN (tenants.json lodging.tokenEnv) (or lodgingEmail and lodgingPassword, a variable named in tenants.json lodging.emailEnv)',
    );
  });

  it('a token that was refused: where it came from', () => {
    expect(
      authHint('lodging', tenant, { lodgingToken: 't' }, { lodgingToken: 'SECRETS_FILE' }),
    ).toMatch(/^the lodging token from SECRETS_FILE was refused: check lodgingToken/);
    expect(authHint('publishing', tenant, {})).toBe(
      'no publishing read token: set publishingReadToken for "quay" in SECRETS_FILE, or the variable QUAY_READ_TOKEN (tenants.json publishing.tokenEnv)',
    );
  });
});
