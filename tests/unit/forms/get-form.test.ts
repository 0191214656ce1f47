import { describe, expect, it } from 'vitest';
import { getFormTarget } from '../../../src/lib/forms/get-form.ts';
import { resolveTenant, tenantHref } from '../../../src/lib/tenants/resolution.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const tenants = [buildTenant({ id: 'herald', hosts: ['herald.localhost'] })];
const hrefAt = (url: string) => (path: string) =>
  tenantHref(resolveTenant({ url: new URL(url) }, tenants)!, path);

describe('getFormTarget: a GET form keeps the query locals.href adds', () => {
  it('preview (?tenant=): the plain path, the tenant as a hidden field', () => {
    const href = hrefAt('http://localhost/?tenant=herald');
    expect(getFormTarget(href('/search'))).toEqual({
      action: '/search',
      hidden: [['tenant', 'herald']],
    });
    expect(getFormTarget(href('/epaper/x')).action).toBe('/epaper/x');
  });

  it('by path or host: the prefixed path, nothing hidden', () => {
    expect(getFormTarget(hrefAt('http://localhost/herald/')('/search'))).toEqual({
      action: '/herald/search',
      hidden: [],
    });
    expect(getFormTarget(hrefAt('http://herald.localhost/')('/epaper/x'))).toEqual({
      action: '/epaper/x',
      hidden: [],
    });
  });
});
