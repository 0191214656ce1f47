import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { embedSettings } from '../../../src/lib/booking/embed/settings.ts';
import { embedLoader } from '../../../src/lib/booking/embed/loader.ts';
import { parseTenantsText } from '../../../src/lib/tenants/schema.ts';
import { offersBooking } from '../../../src/lib/tenants/booking.ts';

const tenants = parseTenantsText(readFileSync('tenants.json', 'utf8')).tenants;
const found = tenants.find((t) => t.id === 'harbour-times');
if (!offersBooking(found)) throw new Error('harbour-times takes bookings in tenants.json');
const harbour = found;
const PROPERTY = harbour.lodging.propertyIds[0]!;

describe('embed settings from the loader’s data-* attributes', () => {
  it('frames only for self and the allowed partner origins', () => {
    const settings = embedSettings(harbour, new URLSearchParams({ property: PROPERTY }));
    expect(settings.frameAncestors).toBe(
      "'self' http://partner.localhost:4322 http://127.0.0.1:4322",
    );
  });

  it('keeps valid prefills and names each ignored attribute', () => {
    const settings = embedSettings(
      harbour,
      new URLSearchParams({
        property: PROPERTY,
        checkIn: '2099-05-01',
        checkOut: '2099-02-30',
        adults: '2',
        children: 'many',
        locale: 'de-CH',
        origin: 'http://127.0.0.1:4322',
      }),
    );
    expect(settings.query).toMatchObject({
      property: PROPERTY,
      checkIn: '2099-05-01',
      adults: 2,
      locale: 'de-CH',
    });
    expect(settings.query?.checkOut).toBeUndefined();
    expect(settings.warnings).toEqual([
      'data-check-out="2099-02-30" was ignored: expected a date as YYYY-MM-DD.',
      'data-children="many" was ignored: expected a whole number from 0 to 50.',
    ]);
    expect(settings.errors).toEqual([]);
    expect(settings.parentOrigin).toBe('http://127.0.0.1:4322');
  });

  it('never posts to a host page outside the allowed origins', () => {
    const settings = embedSettings(
      harbour,
      new URLSearchParams({ property: PROPERTY, origin: 'http://127.0.0.1:4323' }),
    );
    expect(settings.parentOrigin).toBeUndefined();
  });

  it.each([[''], ['not-a-uuid'], ['2f7e65da-5ffa-5e37-b3a8-dd6d533190d1']])(
    'refuses property %j (missing, malformed, another tenant’s)',
    (property) => {
      const settings = embedSettings(
        harbour,
        new URLSearchParams({ property, origin: 'http://127.0.0.1:4322' }),
      );
      expect(settings.query).toBeNull();
      expect(settings.errors).toHaveLength(1);
      expect(settings.errors[0]).toMatch(/^data-property .*Harbour Times’s properties/);
      expect(settings.errors[0]).toContain(PROPERTY);
      // The partner page still hears why (and resizes the frame).
      expect(settings.parentOrigin).toBe('http://127.0.0.1:4322');
    },
  );

  it('keeps the loader within 2 KB gzipped', () => {
    // With its texts in every language, as /embed/booking.js serves it.
    const loader = embedLoader(harbour);
    expect(gzipSync(loader, { level: 9 }).length).toBeLessThanOrEqual(2048);
  });

  it('writes the tenant name and origins into the loader as inert JSON', () => {
    const lodging = { ...harbour.lodging, allowedEmbedOrigins: ['https://a.example'] };
    const loader = embedLoader({ ...harbour, name: 'A</script>\u2028"B', lodging });
    expect(loader).not.toContain('</script>');
    expect(loader).toContain('["https://a.example"]');
    // Parses as a script (it is hand-written JS inside a template string); compiled, never run.
    expect(() => new vm.Script(loader)).not.toThrow();
  });
});

/** Runs the loader for one `<script>` tag on a fake partner page; returns what it inserted. */
function runLoader(scriptSrc: string, pageOrigin = 'http://127.0.0.1:4322') {
  const inserted: Record<string, unknown>[] = [];
  const data: Record<string, string> = { 'data-property': PROPERTY };
  const script = {
    src: scriptSrc,
    attributes: Object.keys(data).map((name) => ({ name })),
    getAttribute: (name: string) => data[name] ?? null,
    setAttribute: (name: string, value: string) => (data[name] = value),
    parentNode: { insertBefore: (element: Record<string, unknown>) => inserted.push(element) },
  };
  const document = {
    querySelectorAll: () => [script],
    createElement: (tag: string) => ({ tag, style: {} }),
  };
  const context = {
    document,
    window: { addEventListener: () => {} },
    location: { href: `${pageOrigin}/page`, origin: pageOrigin },
    URL,
    console: { warn: () => {}, error: () => {} },
  };
  vm.runInNewContext(embedLoader(harbour), context);
  return inserted;
}

describe('the embed loader keeps the tenant its script address chose', () => {
  it.each([
    ['by query', '/embed/booking.js?tenant=harbour-times', '/embed/booking', 'harbour-times'],
    ['by path prefix', '/harbour-times/embed/booking.js', '/harbour-times/embed/booking', null],
  ])('frames the same tenant’s widget when chosen %s', (_, script, pathname, tenant) => {
    const [frame] = runLoader(`http://shared.localhost:4321${script}`);
    const url = new URL(String(frame?.src));
    expect(url.pathname).toBe(pathname);
    expect(url.searchParams.get('tenant')).toBe(tenant);
    expect(url.searchParams.get('property')).toBe(PROPERTY);
  });

  it('links a page it may not frame on to the same tenant’s stay page', () => {
    const [link] = runLoader(
      'http://shared.localhost:4321/embed/booking.js?tenant=harbour-times',
      'https://elsewhere.example',
    );
    const url = new URL(String(link?.href));
    expect(url.pathname).toBe('/stay');
    expect(url.searchParams.get('tenant')).toBe('harbour-times');
  });
});
