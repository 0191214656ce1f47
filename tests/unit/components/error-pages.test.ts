import { describe, expect, it } from 'vitest';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import NotFound from '../../../src/pages/404.astro';
import WrongHost from '../../../src/pages/421.astro';
import Refused from '../../../src/pages/400.astro';
import Failed from '../../../src/pages/500.astro';
import Unavailable from '../../../src/pages/503.astro';
import { i18nFor } from '../../../src/lib/i18n/index.ts';
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

  it('may be kept a few seconds by an edge for a site, never for an address no site names', async () => {
    const container = await AstroContainer.create();
    const cacheControl = async (own: Partial<App.Locals>) =>
      (
        await container.renderToResponse(NotFound, {
          locals: {
            ...own,
            tenant,
            i18n: i18nFor(tenant),
            href: (path: string) => path,
          } as App.Locals,
        })
      ).headers.get('cache-control');
    // An edge refreshing a taken-down story's stale copy replaces it only with what it may store.
    expect(await cacheControl({ tenantMatchOrNull: tenantMatch, tenantMatch })).toMatch(
      /^public, max-age=0, s-maxage=10\b/,
    );
    // A host the tenants file may name any moment.
    expect(await cacheControl({ tenantMatchOrNull: null })).toBe('no-store');
  });
});

describe('the 413 page (a form post above the body limit)', () => {
  it.each([
    ['en-GB', 'Form too long', 'so nothing was sent'],
    ['de-DE', 'Formular zu lang', 'daher wurde nichts gesendet'],
    ['fr-FR', 'Formulaire trop long', 'rien n’a été envoyé'],
  ])('tells a %s reader that nothing was sent, with status 413', async (locale, heading, text) => {
    const site = buildTenant({ locale });
    const match = { ...tenantMatch, tenant: site };
    const own = { tenant: site, i18n: i18nFor(site), tenantMatchOrNull: match, tenantMatch: match };
    const page = await render(Refused, { locals: locals({ ...own, edgeRefusal: 'too-large' }) });
    expect(page.getByRole('heading', { level: 1 }).textContent).toBe(heading);
    expect(page.body.textContent).toContain(text);
    expect(page.getByRole('banner').textContent).toContain(site.name);

    const container = await AstroContainer.create();
    const response = await container.renderToResponse(Refused, {
      locals: { ...own, edgeRefusal: 'too-large', href: (path: string) => path } as App.Locals,
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('connection')).toBe('close');
  });
});

describe('the 421 page (a post to a host that is not the tenant’s)', () => {
  it.each([
    ['en-GB', 'Wrong address', 'does not take posts sent to evil.example', 'Open Gazette'],
    ['de-DE', 'Falsche Adresse', 'nimmt unter evil.example keine Eingaben an', 'Zu Gazette'],
    ['fr-FR', 'Mauvaise adresse', 'envois adressés à evil.example', 'Aller sur Gazette'],
  ])(
    'tells a %s reader nothing was sent, and links to the tenant’s own address',
    async (locale, heading, text, link) => {
      const site = buildTenant({ locale });
      const match: TenantMatch = {
        tenant: site,
        via: 'path',
        basePath: '/gazette',
        pathname: '/login',
        origin: 'https://evil.example',
      };
      const own = {
        tenant: site,
        i18n: i18nFor(site),
        tenantMatchOrNull: match,
        tenantMatch: match,
      };
      const page = await render(WrongHost, { locals: locals(own) });
      expect(page.getByRole('heading', { level: 1 }).textContent).toBe(heading);
      expect(page.body.textContent).toContain(text);
      // The tenant's configured origin, never the host the post came to.
      expect(page.getByRole('link', { name: link }).getAttribute('href')).toBe(
        'https://gazette.example.com/',
      );

      const container = await AstroContainer.create();
      const response = await container.renderToResponse(WrongHost, {
        locals: { ...own, href: (path: string) => path } as App.Locals,
      });
      expect(response.status).toBe(421);
      expect(response.headers.get('cache-control')).toBe('no-store');
    },
  );
});

describe('the 400 page (a request the edge refused before anything ran)', () => {
  const site = (locale: string) => {
    const tenant = buildTenant({ locale });
    const match: TenantMatch = { ...tenantMatch, tenant, origin: 'https://evil.example' };
    return { tenant, i18n: i18nFor(tenant), tenantMatchOrNull: match, tenantMatch: match };
  };

  it.each([
    ['too-long', 414, 'de-DE', 'Adresse zu lang', 'zu lang zum Öffnen'],
    ['unreadable-path', 400, 'fr-FR', 'Adresse illisible', 'n’a pas pu être lue'],
    ['length-required', 411, 'en-GB', 'Not sent', 'so nothing was sent'],
    ['no-body-allowed', 400, 'de-DE', 'Nicht gesendet', 'daher wurde nichts gesendet'],
  ] as const)(
    'answers %s with the tenant’s page in its language (%i, no-store)',
    async (edgeRefusal, status, locale, heading, text) => {
      const own = { ...site(locale), edgeRefusal };
      const page = await render(Refused, { locals: locals(own) });
      expect(page.getByRole('heading', { level: 1 }).textContent).toBe(heading);
      expect(page.body.textContent).toContain(text);
      expect(page.getByRole('banner').textContent).toContain(own.tenant.name);

      const container = await AstroContainer.create();
      const response = await container.renderToResponse(Refused, {
        locals: { ...own, href: (path: string) => path } as App.Locals,
      });
      expect(response.status).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
    },
  );

  it.each([
    ['en-GB', 'Form not sent', 'so nothing was sent', 'Open Gazette'],
    ['de-DE', 'Formular nicht gesendet', 'daher wurde nichts gesendet', 'Zu Gazette'],
    ['fr-FR', 'Formulaire non envoyé', 'rien n’a été envoyé', 'Aller sur Gazette'],
  ])(
    'tells a %s reader a form from another site sent nothing, with a link to the tenant’s own address',
    async (locale, heading, text, link) => {
      const own = { ...site(locale), edgeRefusal: 'cross-site' as const };
      const page = await render(Refused, { locals: locals(own) });
      expect(page.getByRole('heading', { level: 1 }).textContent).toBe(heading);
      expect(page.body.textContent).toContain(text);
      // The tenant's configured origin, never the host the post came to.
      expect(page.getByRole('link', { name: link }).getAttribute('href')).toBe(
        'https://gazette.example.com/',
      );
      const container = await AstroContainer.create();
      const response = await container.renderToResponse(Refused, {
        locals: { ...own, href: (path: string) => path } as App.Locals,
      });
      expect(response.status).toBe(403);
    },
  );

  it('says it in plain English without a tenant, reading no tenant text', async () => {
    const page = await render(Refused, {
      locals: Object.assign(locals({ tenantMatchOrNull: null, edgeRefusal: 'too-long' }), {
        tenant: undefined,
        i18n: undefined,
      }),
    });
    expect(page.getByRole('heading', { level: 1 }).textContent).toBe('Address too long');
  });
});

describe('an error page inside the booking embed’s frame', () => {
  it('opens the way on in a new tab, as the embed’s own links do: the site’s pages refuse to be framed', async () => {
    const site = buildTenant({ locale: 'en-GB' });
    const match = { ...tenantMatch, tenant: site };
    const own = { tenant: site, i18n: i18nFor(site), tenantMatchOrNull: match, tenantMatch: match };
    const framed = await render(Refused, {
      locals: locals({ ...own, edgeRefusal: 'too-large', embedAncestors: "'self'" }),
    });
    const link = framed.getByRole('link', { name: 'Back to the front page' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener');
    const page = await render(Refused, { locals: locals({ ...own, edgeRefusal: 'too-large' }) });
    expect(
      page.getByRole('link', { name: 'Back to the front page' }).getAttribute('target'),
    ).toBeNull();
  });
});

describe('the 500 and 503 pages', () => {
  const own = { tenant, i18n: i18nFor(tenant), tenantMatchOrNull: tenantMatch, tenantMatch };

  it.each([
    ['500', Failed, {}, 500, null],
    ['503', Unavailable, { retryAfter: 7 }, 503, '7'],
    ['503 without a wait', Unavailable, {}, 503, '30'],
  ] as const)(
    'the %s page: its status shown and answered, kept by no cache',
    async (_label, Page, extra, status, retryAfter) => {
      const page = await render(Page, { locals: locals({ ...own, ...extra }) });
      expect(page.body.querySelector('.status')?.textContent).toBe(String(status));
      const container = await AstroContainer.create();
      const response = await container.renderToResponse(Page, {
        locals: { ...own, ...extra, href: (path: string) => path } as App.Locals,
      });
      expect(response.status).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('retry-after')).toBe(retryAfter);
    },
  );

  it('each page shows the status it answers (413 from the 400 page)', async () => {
    const page = await render(Refused, { locals: locals({ ...own, edgeRefusal: 'too-large' }) });
    expect(page.body.querySelector('.status')?.textContent).toBe('413');
  });
});
