import { describe, expect, it } from 'vitest';
import { parseTenantsFile } from '../../../src/lib/tenants/schema.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import { readTokenWarnings } from '../../../src/lib/upstream/warnings.ts';

const tenant = (id: string, tokenEnv?: string) => ({
  id,
  name: id,
  hosts: [`${id}.example.com`],
  locale: 'en-GB',
  timeZone: 'Europe/London',
  theme: { colors: { primary: '#123456', accent: '#abcdef' } },
  publishing: { baseUrl: 'https://api.example.com/api/v1', ...(tokenEnv ? { tokenEnv } : {}) },
});

/** The environment's lookup of the secrets tenants.json names, over a plain record. */
const secrets = (env: Record<string, string>) => (name: string | undefined) =>
  name === undefined ? undefined : env[name];

describe('start-up warning for tenants without a read token', () => {
  const { tenants } = parseTenantsFile({
    tenants: [
      tenant('gazette'),
      tenant('herald', 'HERALD_TOKEN'),
      tenant('courier', 'COURIER_TOKEN'),
    ],
  });

  it('names each tenant without a token and the budget it shares', () => {
    const warnings = readTokenWarnings(
      tenants,
      createUpstream(),
      secrets({ COURIER_TOKEN: 'secret' }),
    );
    expect(warnings.map((w) => w.tenant)).toEqual(['gazette', 'herald']);
    expect(warnings[0]?.message).toBe(
      'Tenant "gazette" has no publishing read token: 2 tenant(s) (gazette, herald) share 54 uncached upstream reads a minute at https://api.example.com (60/min per server IP, less headroom); one visitor may take 14 of them. Set publishing.tokenEnv to give it 216 a minute of its own.',
    );
    expect(warnings[1]?.message).toContain('Set HERALD_TOKEN (publishing.tokenEnv)');
  });

  it('is silent when every tenant has its token', () => {
    expect(
      readTokenWarnings(
        tenants.slice(1),
        createUpstream(),
        secrets({
          HERALD_TOKEN: 'a',
          COURIER_TOKEN: 'b',
        }),
      ),
    ).toEqual([]);
  });
});
