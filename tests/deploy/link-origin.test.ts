/**
 * One origin for every absolute link (issue 33): pages (canonical, og:url), the RSS feed, sitemaps,
 * robots.txt, `Location` headers and mailed links name the tenant's configured host from
 * tenants.json, whatever a request's `Host` or `X-Forwarded-Host` says: directly (a server behind
 * a trusted proxy believes `X-Forwarded-Host`) and through the shipped edge (nginx passes the
 * client's `Host` on as `X-Forwarded-Host`).
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { day } from '../fixtures/dates.ts';
import { send, waitFor, type Reply, type RequestOptions } from './http.ts';
import { freePort, type Service } from './processes.ts';
import { startDocumentedMock, startEdge, startSite, type Mock } from './stack.ts';

const EVIL = 'evil.example';
const TENANT = 'harbour-times';
/** harbour-times' first exact host in tenants.json (a development name: http, no port). */
const OWN = 'http://harbour-times.localhost';

let mock: Mock;
let site: Service;
let edge: Service & { dir: string };
let smtp: SMTPServer;
const inbox: ParsedMail[] = [];

beforeAll(async () => {
  const smtpPort = await freePort();
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
  mock = await startDocumentedMock();
  // startSite sets TRUST_PROXY: the server believes X-Forwarded-Host, as behind the edge.
  site = await startSite({
    mock,
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), SMTP_FROM: 'b@masthead.test' },
  });
  edge = await startEdge([site.port]);
});

afterAll(async () => {
  await edge?.stop();
  await site?.stop();
  await mock?.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

/** The hostile ways a request names another host; the tenant comes from its path prefix. */
const hostile: [string, (path: string) => Promise<Reply>][] = [
  [
    'through the edge, Host',
    (path) => send(`http://127.0.0.1:${edge.port}${path}`, { host: EVIL }),
  ],
  [
    'directly, X-Forwarded-Host',
    (path) =>
      send(`http://127.0.0.1:${site.port}${path}`, {
        headers: { 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'https' },
      }),
  ],
  ['directly, Host', (path) => send(`http://127.0.0.1:${site.port}${path}`, { host: EVIL })],
];

/** Every absolute http(s) address in a text that is not a namespace or schema name. */
function addresses(text: string): string[] {
  const namespaces =
    /^https?:\/\/(www\.w3\.org|www\.sitemaps\.org|www\.google\.com|schema\.org|purl\.org)\//;
  return [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)]
    .map((m) => m[0])
    .filter((address) => !namespaces.test(address));
}

describe.each(hostile)('links on pages, feeds and sitemaps, %s: evil.example', (_way, get) => {
  it('canonical and og:url name the tenant’s own host', async () => {
    const page = await get(`/${TENANT}/plans`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<link rel="canonical" href="${OWN}/plans">`);
    expect(page.text).toContain(`<meta property="og:url" content="${OWN}/plans">`);
    expect(page.text).not.toContain(EVIL);
  });

  it.each(['/rss.xml', '/sitemap.xml', '/sitemap-pages.xml', '/robots.txt'])(
    '%s names only the tenant’s own host',
    async (path) => {
      const reply = await get(`/${TENANT}${path}`);
      expect(reply.status).toBe(200);
      expect(reply.text).not.toContain(EVIL);
      const own = addresses(reply.text).filter((address) => !address.includes('127.0.0.1:'));
      expect(own.length).toBeGreaterThan(0);
      for (const address of own) expect(address.startsWith(`${OWN}/`), address).toBe(true);
    },
  );

  it.each([`/${TENANT}/plans?utm_source=x`, `/${TENANT}/page/1`])(
    'the redirect of %s stays on the site',
    async (path) => {
      const reply = await get(path);
      expect(reply.status).toBe(301);
      const location = String(reply.headers.location);
      expect(location).not.toContain(EVIL);
      expect(location.startsWith(`${OWN}/`) || /^\/(?![/\\])/.test(location), location).toBe(true);
    },
  );
});

describe('a host matched by a tenant’s wildcard (daily-planet: *.dailyplanet.example.com)', () => {
  const WILD = 'evil.dailyplanet.example.com';
  it.each([
    ['through the edge', () => send(`http://127.0.0.1:${edge.port}/plans`, { host: WILD })],
    [
      'directly, X-Forwarded-Host',
      () =>
        send(`http://127.0.0.1:${site.port}/plans`, {
          headers: { 'x-forwarded-host': WILD, 'x-forwarded-proto': 'https' },
        }),
    ],
  ])('%s: links name its first exact host, never the matched name', async (_way, get) => {
    const page = await get();
    expect(page.status).toBe(200);
    // Its first exact host in tenants.json: a development name (http).
    expect(page.text).toContain(
      '<link rel="canonical" href="http://daily-planet.localhost/plans">',
    );
    expect(page.text).not.toContain(WILD);
  });
});

describe('the booking embed on the tenant’s own page, behind a proxy that ends TLS', () => {
  it('sends its height and events to the https page that frames it', async () => {
    const own = { host: 'harbourtimes.example.com', headers: { 'x-forwarded-proto': 'https' } };
    const properties = JSON.parse(
      (await send(`http://127.0.0.1:${site.port}/api/booking/properties`, own)).text,
    ) as { data: { id: string }[] };
    // What the loader asks for on https://harbourtimes.example.com (its own origin, not a partner's).
    const query = new URLSearchParams({
      property: properties.data[0]!.id,
      origin: 'https://harbourtimes.example.com',
    });
    const frame = await send(`http://127.0.0.1:${site.port}/embed/booking?${query}`, own);
    expect(frame.status).toBe(200);
    expect(frame.text).toContain('data-parent-origin="https://harbourtimes.example.com"');
  });
});

async function mailTo(email: string, count: number): Promise<ParsedMail> {
  const mails = await waitFor(`${count} mails to ${email}`, () => {
    const found = inbox.filter((m) => JSON.stringify(m.to).includes(email));
    return Promise.resolve(found.length >= count ? found : undefined);
  });
  expect(mails).toHaveLength(count);
  return mails.at(-1)!;
}

const manageLink = (mail: ParsedMail) =>
  /https?:\/\/\S+\/stay\/manage\/\S+/.exec(mail.text ?? '')?.[0] ?? '';

interface Way {
  /** The site's address for the request, with the tenant's path prefix when it takes one. */
  base: () => string;
  options: RequestOptions;
  /** The `Origin` a browser on that page would send. */
  origin: () => string;
  /** How the mailed manage link must start. */
  expected: () => string;
}

const mailWays: [string, Way][] = [
  // Through the edge on its loopback address (the tenant by path prefix), with a forged
  // X-Forwarded-Host the edge replaces: the tenant's development name, the local port.
  [
    'through the edge by path prefix',
    {
      base: () => `http://127.0.0.1:${edge.port}/${TENANT}`,
      options: { headers: { 'x-forwarded-host': EVIL } },
      origin: () => `http://127.0.0.1:${edge.port}`,
      expected: () => `${OWN}:${edge.port}/stay/manage/`,
    },
  ],
  // On one of the tenant's exact public names, sent over http: https on that name.
  [
    'directly on the tenant’s public name',
    {
      base: () => `http://127.0.0.1:${site.port}`,
      options: { host: 'harbourtimes.example.com', headers: { 'x-forwarded-proto': 'http' } },
      origin: () => 'http://harbourtimes.example.com',
      expected: () => 'https://harbourtimes.example.com/stay/manage/',
    },
  ],
];

describe.each(mailWays)('mailed links, %s', (_way, way) => {
  it('the confirmation and "find my booking" name the configured host', async () => {
    const post = (path: string, body: string, type: string) =>
      send(`${way.base()}${path}`, {
        ...way.options,
        method: 'POST',
        body,
        headers: { ...way.options.headers, origin: way.origin(), 'content-type': type },
      });
    const properties = JSON.parse(
      (await send(`${way.base()}/api/booking/properties`, way.options)).text,
    ) as { data: { id: string; roomTypes: { id: string }[] }[] };
    const place = properties.data[0]!;
    const email = `links.${Date.now()}@example.com`;
    const nights = 500 + inbox.length * 3;
    const booking = await post(
      '/api/booking/bookings',
      JSON.stringify({
        idempotencyKey: `linkorigin${Date.now()}000000`,
        propertyId: place.id,
        roomTypeId: place.roomTypes[0]!.id,
        checkIn: day(nights),
        checkOut: day(nights + 2),
        adults: 1,
        children: 0,
        firstName: 'Eve',
        lastName: 'Dge',
        email,
        phone: '',
        nationality: '',
        notes: '',
      }),
      'application/json',
    );
    expect(booking.status, booking.text).toBe(200);
    const { reference } = (JSON.parse(booking.text) as { data: { reference: string } }).data;
    const confirmation = await mailTo(email, 1);
    expect(manageLink(confirmation).startsWith(way.expected()), manageLink(confirmation)).toBe(
      true,
    );
    expect(`${confirmation.text}${String(confirmation.html)}`).not.toContain(EVIL);

    const find = await post(
      '/stay/manage?_action=findStay',
      new URLSearchParams({ email, reference }).toString(),
      'application/x-www-form-urlencoded',
    );
    expect(find.status).toBe(303);
    const location = String(find.headers.location);
    expect(location.startsWith('/') && !location.startsWith('//'), location).toBe(true);
    const found = await mailTo(email, 2);
    expect(manageLink(found).startsWith(way.expected()), manageLink(found)).toBe(true);
    expect(`${found.text}${String(found.html)}`).not.toContain(EVIL);
  });
});
