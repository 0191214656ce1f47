import { describe, expect, it } from 'vitest';
import NotFound from '../../../src/pages/404.astro';
import { buildTenant } from '../../fixtures/tenant.ts';
import type { TenantMatch } from '../../../src/lib/tenants/resolution.ts';
import { render } from './render.ts';

const tenant = buildTenant();
const tenantMatch: TenantMatch = {
  tenant,
  via: 'host',
  basePath: '',
  pathname: '/x',
  origin: 'https://x.test',
};
/** Only what the 404 page reads; the render helper adds the tenant's text and links. */
const locals = (own: Partial<App.Locals>) => own as App.Locals;

describe('the 404 page', () => {
  it('is the tenant’s own, with its header, when a tenant was resolved', async () => {
    const page = await render(NotFound, {
      locals: locals({ tenantMatchOrNull: tenantMatch, tenantMatch }),
    });
    expect(page.getByRole('heading', { level: 1 }).textContent).not.toMatch(/site not found/i);
    expect(page.getByRole('banner').textContent).toContain(tenant.name);
  });

  it('says "Site not found" when no tenant was, reading no tenant text', async () => {
    // As in production, where `locals.i18n` throws without a tenant.
    const page = await render(NotFound, {
      locals: Object.assign(locals({ tenantMatchOrNull: null }), {
        tenant: undefined,
        i18n: undefined,
      }),
    });
    expect(page.getByRole('heading', { level: 1 }).textContent).toMatch(/site not found/i);
    expect(page.getByText('No publication is configured for this address.')).toBeTruthy();
  });
});
