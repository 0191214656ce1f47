import { describe, expect, it } from 'vitest';
import { watchEveryTenant } from '../../../src/lib/freshness/watch-all.ts';
import { diffTenants } from '../../../src/lib/tenants/loader.ts';
import type { TenantsChange } from '../../../src/lib/tenants/loader.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

describe('watchEveryTenant', () => {
  it('starts, restarts and stops watchers as tenants are added, changed and removed', () => {
    const running = new Map<string, Tenant>();
    const stopped: string[] = [];
    let listener: ((change: TenantsChange) => void) | undefined;
    const reload = (before: readonly Tenant[], after: Tenant[]) => {
      const change = { version: 2, reason: 'file' as const, ...diffTenants(before, after) };
      listener?.(change);
      return change.tenants;
    };
    const gazette = buildTenant();
    const courier = buildTenant({ id: 'courier', name: 'Courier', hosts: ['courier.example.com'] });
    const watchers = watchEveryTenant(
      [gazette],
      (subscriber) => (listener = subscriber),
      (tenant) => {
        running.set(tenant.id, tenant);
        return {
          stop: () => {
            stopped.push(tenant.name);
            running.delete(tenant.id);
          },
        };
      },
    );
    expect([...watchers.keys()]).toEqual(['gazette']);

    let tenants = reload([gazette], [gazette, courier]);
    expect([...running.keys()]).toEqual(['gazette', 'courier']);

    tenants = reload(tenants, [gazette, buildTenant({ ...courier, name: 'The Courier' })]);
    expect(running.get('courier')?.name).toBe('The Courier');
    expect(stopped).toEqual(['Courier']);

    reload(tenants, [tenants[1]!]);
    expect([...running.keys()]).toEqual(['courier']);
    expect([...watchers.keys()]).toEqual(['courier']);
    expect(stopped).toEqual(['Courier', 'Gazette']);
  });
});
