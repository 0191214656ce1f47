/**
 * The embed of one place (src/pages/embed/booking.astro) whose lodging read fails while the
 * tenant's other places answer: the frame says what /stay says of a link to that place (it cannot be
 * booked online now), not that booking as a whole is down for a moment, and links to the others.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { Window } from 'happy-dom';
import { i18nFor } from '../../../src/lib/i18n/index.ts';
import type { TenantMatch } from '../../../src/lib/tenants/resolution.ts';
import { demo, startTestMock, type Mock } from '../../integration/harness.ts';

const SEAVIEW = 'a06218e9-2a16-55fd-a201-69b7dcb570ce';

let mock: Mock;
type Registry = typeof import('../../../src/lib/tenants/registry.ts');
let registry: Registry;

beforeAll(async () => {
  mock = await startTestMock({ lodgingPerMinute: 0 });
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('HARBOUR_LODGING_TOKEN', demo.lodging['harbour-hotels']!.fullToken);
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  registry = await import('../../../src/lib/tenants/registry.ts');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

async function embed(property: string) {
  const tenant = registry.getTenants().find((t) => t.id === 'harbour-times')!;
  const match: TenantMatch = {
    tenant,
    via: 'host',
    basePath: '',
    pathname: '/embed/booking',
    origin: 'http://harbour-times.localhost',
  };
  const { default: Embed } = await import('../../../src/pages/embed/booking.astro');
  const container = await AstroContainer.create();
  const url = `http://harbour-times.localhost/embed/booking?property=${property}`;
  const response = await container.renderToResponse(Embed, {
    request: new Request(url),
    locals: {
      tenant,
      tenantMatch: match,
      tenantMatchOrNull: match,
      i18n: i18nFor(tenant),
      href: (path: string) => path,
      visitor: { address: '127.0.0.1', local: true, origin: match.origin },
    } as unknown as App.Locals,
  });
  const { document } = new Window();
  document.body.innerHTML = await response.text();
  return { status: response.status, body: document.body as unknown as HTMLElement };
}

describe('the embed of a place the lodging API no longer has', () => {
  it('says the place cannot be booked online now, and links to the tenant’s booking page', async () => {
    const places = mock.state.lodging.properties;
    places.splice(
      places.findIndex((p) => p.id === SEAVIEW),
      1,
    );
    const { status, body } = await embed(SEAVIEW);
    expect(status).toBe(404);
    const alert = body.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('This place cannot be booked online right now.');
    expect(alert?.textContent).not.toContain('in a moment');
    expect(alert?.querySelector('a')?.getAttribute('href')).toBe('/stay');
  });
});
