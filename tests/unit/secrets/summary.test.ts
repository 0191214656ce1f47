import { describe, expect, it } from 'vitest';
import { secretsSummary, tenantSecretsLine } from '../../../src/lib/secrets/summary.ts';
import { resolveTenantSecrets } from '../../../src/lib/secrets/tenant.ts';
import type { SecretTenant } from '../../../src/lib/secrets/tenant.ts';
import type { TenantSecretValues } from '../../../src/lib/secrets/schema.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const up = createUpstream({});
const lodging = {
  baseUrl: 'https://lodging.example/api/v1',
  propertyIds: ['f288dd17-9e1e-5421-8b43-5674c8a96975'],
};

/** Fifty tenants `t01` … `t50`, the first two with lodging. */
const fifty = Array.from({ length: 50 }, (_, i) => {
  const id = `t${String(i + 1).padStart(2, '0')}`;
  return buildTenant({ id, hosts: [`${id}.example.com`], ...(i < 2 ? { lodging } : {}) });
});

const from = (file: Record<string, TenantSecretValues>) => (tenant: SecretTenant) =>
  resolveTenantSecrets(tenant, {
    file: (id) => file[id],
    variable: () => undefined,
    purgeSecrets: new Map(),
  });

describe('the start-up line about secrets', () => {
  it('is one line naming each tenant once, grouped by what it lacks, with no value', () => {
    const file = Object.fromEntries(
      fifty.map((tenant, i) => [
        tenant.id,
        i < 47 ? { publishingReadToken: `read-${tenant.id}`, purgeSecret: `purge-${i}` } : {},
      ]),
    );
    const { level, message } = secretsSummary(fifty, from(file), up, 'SECRETS_FILE /run/s');
    expect(level).toBe('warn');
    expect(message).toBe(
      'Secrets (SECRETS_FILE /run/s): 5 of 50 tenant(s) lack one: ' +
        'no lodgingToken: t01, t02; no publishingReadToken + purgeSecret: t48, t49, t50. ' +
        'Without publishingReadToken a tenant shares 54 uncached reads a minute per publishing API ' +
        'address with every other such tenant (one visitor may take 14); with one it has 216 of its own.',
    );
    for (const tenant of fifty) {
      expect(message.split(new RegExp(`\\b${tenant.id}\\b`)).length).toBeLessThanOrEqual(2);
    }
    expect(message).not.toMatch(/read-t|purge-\d/);
  });

  it('is a short note when every tenant has every secret, or lacks only a purge secret', () => {
    const all = from(
      Object.fromEntries(
        fifty.map((t) => [t.id, { publishingReadToken: 'r', lodgingToken: 'l', purgeSecret: 'p' }]),
      ),
    );
    expect(secretsSummary(fifty, all, up, 'variables')).toEqual({
      level: 'info',
      message: 'Secrets (variables): 0 of 50 tenant(s) lack one.',
    });
    const noPurge = from(
      Object.fromEntries(fifty.map((t) => [t.id, { publishingReadToken: 'r', lodgingToken: 'l' }])),
    );
    expect(secretsSummary(fifty, noPurge, up, 'variables').level).toBe('info');
  });
});

describe("the doctor's line for one tenant", () => {
  it('says what it lacks and where the others come from, never a value', () => {
    const t01 = fifty[0]!;
    const line = tenantSecretsLine(t01, from({ t01: { lodgingToken: 'l-value' } })(t01));
    expect(line).toBe(
      'Secrets of t01: lacks publishingReadToken, purgeSecret (lodgingToken from SECRETS_FILE).',
    );
  });
});
