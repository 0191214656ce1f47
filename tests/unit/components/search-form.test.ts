import { describe, expect, it } from 'vitest';
import SearchForm from '../../../src/components/search/SearchForm.astro';
import { resolveTenant, tenantHref } from '../../../src/lib/tenants/resolution.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { render } from './render.ts';

const tenant = buildTenant({ id: 'herald', name: 'Herald' });
const match = resolveTenant({ url: new URL('http://localhost/?tenant=herald') }, [tenant])!;
const preview = {
  tenant,
  tenantMatchOrNull: match,
  href: (path: string) => tenantHref(match, path),
} as App.Locals;

describe('search form in preview (?tenant=)', () => {
  it('submits to the plain path and keeps the tenant as a hidden field, after the query', async () => {
    const view = await render(SearchForm, { props: { query: 'ferry' }, locals: preview });
    const form = view.body.querySelector('form');
    expect(form?.getAttribute('action')).toBe('/search');
    const fields = [...(form?.querySelectorAll('input') ?? [])];
    expect(fields.map((input) => [input.name, input.value])).toEqual([
      ['q', 'ferry'],
      ['tenant', 'herald'],
    ]);
  });
});
