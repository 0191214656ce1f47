import { describe, expect, it } from 'vitest';
import {
  lodgingCredentials,
  missingSecrets,
  resolveTenantSecrets,
  type SecretSources,
} from '../../../src/lib/secrets/tenant.ts';
import type { TenantSecretValues } from '../../../src/lib/secrets/schema.ts';
import { readSettings } from '../../../src/lib/settings/settings.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const lodging = {
  baseUrl: 'https://lodging.example/api/v1',
  propertyIds: ['f288dd17-9e1e-5421-8b43-5674c8a96975'],
};
const gazette = buildTenant({
  publishing: { baseUrl: 'https://api.example.com/api/v1', tokenEnv: 'GAZETTE_READ_TOKEN' },
  lodging: { ...lodging, tokenEnv: 'GAZETTE_LODGING_TOKEN' },
});

/** `PURGE_SECRETS` as the settings read it. */
const purgeSecretPairs = (value: string) =>
  readSettings(['PURGE_SECRETS'], { PURGE_SECRETS: value }).PURGE_SECRETS ??
  new Map<string, string>();
const OLD = 'o'.repeat(32);

function sources(
  file: Record<string, TenantSecretValues>,
  env: Record<string, string>,
  purge = '',
): SecretSources {
  return {
    file: (id) => file[id],
    variable: (name) => (name ? env[name] : undefined),
    purgeSecrets: purgeSecretPairs(purge),
  };
}

describe('where a tenant secret comes from', () => {
  it('the file first, then the variable tenants.json names, secret by secret', () => {
    const secrets = resolveTenantSecrets(
      gazette,
      sources(
        { gazette: { lodgingToken: 'from-file' } },
        { GAZETTE_READ_TOKEN: 'read-from-env', GAZETTE_LODGING_TOKEN: 'stale-from-env' },
        `gazette=${OLD}`,
      ),
    );
    expect(secrets.values).toEqual({
      publishingReadToken: 'read-from-env',
      lodgingToken: 'from-file',
      purgeSecret: OLD,
    });
    expect(secrets.from).toEqual({
      publishingReadToken: 'GAZETTE_READ_TOKEN',
      lodgingToken: 'SECRETS_FILE',
      purgeSecret: 'PURGE_SECRETS',
    });
  });

  it('needs no variable name at all when the file has the secret (one entry, one secret line)', () => {
    const bare = buildTenant({ id: 'herald', lodging });
    const secrets = resolveTenantSecrets(
      bare,
      sources({ herald: { publishingReadToken: 'r', lodgingToken: 'l', purgeSecret: 'p' } }, {}),
    );
    expect(missingSecrets(bare, secrets)).toEqual([]);
    expect(lodgingCredentials(secrets)).toEqual({ token: 'l' });
  });

  it('reads PURGE_SECRETS pairs; the file’s purgeSecret wins over them', () => {
    const [abc, xyz] = ['abc='.repeat(8), 'xyz'.repeat(11)];
    const pairs = purgeSecretPairs(`daily-planet=${abc}, harbour-times = ${xyz} ,alpine-post=`);
    expect(pairs.get('daily-planet')).toBe(abc);
    expect(pairs.get('harbour-times')).toBe(xyz);
    expect(pairs.has('alpine-post')).toBe(false);
    expect(purgeSecretPairs('').size).toBe(0);
    const secrets = resolveTenantSecrets(
      gazette,
      sources({ gazette: { purgeSecret: 'new' } }, {}, `gazette=${OLD}`),
    );
    expect(secrets.values.purgeSecret).toBe('new');
  });
});

describe('what a tenant lacks', () => {
  it.each([
    ['nothing anywhere', {}, {}, ['publishingReadToken', 'lodgingToken', 'purgeSecret']],
    [
      'an e-mail and password for lodging instead of a token',
      { gazette: { lodgingEmail: 'm@x.test', lodgingPassword: 'pw', purgeSecret: 'p' } },
      { GAZETTE_READ_TOKEN: 'r' },
      [],
    ],
    [
      'only the e-mail',
      { gazette: { lodgingEmail: 'm@x.test' } },
      { GAZETTE_READ_TOKEN: 'r' },
      ['lodgingToken', 'purgeSecret'],
    ],
  ] as const)('%s', (_case, file, env, missing) => {
    expect(missingSecrets(gazette, resolveTenantSecrets(gazette, sources(file, env)))).toEqual(
      missing,
    );
  });

  it('no lodging secret for a tenant without lodging', () => {
    const plain = buildTenant({ id: 'plain' });
    expect(missingSecrets(plain, resolveTenantSecrets(plain, sources({}, {})))).toEqual([
      'publishingReadToken',
      'purgeSecret',
    ]);
  });
});
