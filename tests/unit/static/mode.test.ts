import { afterEach, describe, expect, it } from 'vitest';
import { staticProblem } from '../../../src/lib/static/build.ts';
import { fileForPath } from '../../../src/lib/static/crawl.ts';
import { absoluteUrl, breadcrumbLd } from '../../../src/lib/reading/seo.ts';
import { SNAPSHOT_ENV, isStaticBuild, staticBookingEmbed } from '../../../src/lib/static/mode.ts';
import { staticOrigin } from '../../../src/lib/tenants/origin.ts';
import { forgetSettings } from '../../../src/lib/settings/settings.ts';
import { TenantSchema } from '../../../src/lib/tenants/schema.ts';

const tenant = (fields: Record<string, unknown> = {}) =>
  TenantSchema.parse({
    id: 'gazette',
    name: 'Gazette',
    hosts: ['gazette.example.com', '*.gazette.example.com'],
    locale: 'en-GB',
    timeZone: 'Europe/London',
    theme: { colors: { primary: '#123456', accent: '#abcdef' } },
    publishing: { baseUrl: 'https://api.example.com/api/v1' },
    ...fields,
  });

const lodging = {
  baseUrl: 'https://lodging.example.com/api/v1',
  tokenEnv: 'GAZETTE_LODGING_TOKEN',
  propertyIds: ['f288dd17-9e1e-5421-8b43-5674c8a96975'],
};

afterEach(() => {
  delete process.env[SNAPSHOT_ENV];
  forgetSettings();
});

describe('static mode', () => {
  it('is on only while the build renders from a snapshot', () => {
    expect(isStaticBuild()).toBe(false);
    process.env[SNAPSHOT_ENV] = '/tmp/snapshot.json';
    forgetSettings();
    expect(isStaticBuild()).toBe(true);
  });

  it.each([
    ['/posts/a', 'https://gazette.example.com/posts/a/', 'posts/a/index.html'],
    ['/page/2', 'https://gazette.example.com/page/2/', 'page/2/index.html'],
    ['/', 'https://gazette.example.com/', 'index.html'],
    ['/sitemap.xml', 'https://gazette.example.com/sitemap.xml', 'sitemap.xml'],
  ])(
    'names %s of a copy as its host serves the file it writes (%s, from %s): no redirect',
    (path, url, file) => {
      process.env[SNAPSHOT_ENV] = '/tmp/snapshot.json';
      forgetSettings();
      expect(absoluteUrl({ tenant: tenant(), origin: 'https://gazette.example.com' }, path)).toBe(
        url,
      );
      expect(fileForPath(path)).toBe(file);
    },
  );

  it('names a copy’s pages in its breadcrumbs as its host serves them too', () => {
    process.env[SNAPSHOT_ENV] = '/tmp/snapshot.json';
    forgetSettings();
    const crumbs = [{ name: 'E-paper', path: '/epaper' }];
    expect(breadcrumbLd(crumbs, 'https://gazette.example.com')['itemListElement']).toEqual([
      expect.objectContaining({ item: 'https://gazette.example.com/epaper/' }),
    ]);
  });

  it('names a live page without the slash its server would redirect away', () => {
    const match = { tenant: tenant(), origin: 'https://gazette.example.com' };
    expect(absoluteUrl(match, '/posts/a')).toBe('https://gazette.example.com/posts/a');
  });

  it('names the copy after static.origin, else the primary host over https', () => {
    expect(staticOrigin(tenant())).toBe('https://gazette.example.com');
    expect(staticOrigin(tenant({ static: { origin: 'https://files.gazette.example' } }))).toBe(
      'https://files.gazette.example',
    );
  });

  it('refuses a tenant whose only host is a wildcard, naming it and the fix', () => {
    // tenants.json refuses such a tenant (it needs an exact host); the build checks again.
    const wild = { ...tenant(), hosts: ['*.gazette.example.com'] };
    expect(staticProblem(wild)).toBe(
      'tenant "gazette" cannot be built statically: its first host is a wildcard; set static.origin in tenants.json',
    );
    expect(
      staticProblem({
        ...wild,
        ...tenant({ static: { origin: 'https://gazette.example' } }),
        hosts: wild.hosts,
      }),
    ).toBeNull();
  });

  it('books through the live server’s embed only when there is one', () => {
    const booking = { features: { booking: true, epaper: true, streams: true, comments: true } };
    expect(staticBookingEmbed(tenant({ ...booking, lodging }))).toBeNull();
    expect(
      staticBookingEmbed(
        tenant({ ...booking, lodging, static: { liveOrigin: 'https://gazette.example.com' } }),
      ),
    ).toEqual({
      src: 'https://gazette.example.com/embed/booking.js',
      propertyIds: lodging.propertyIds,
    });
  });
});
