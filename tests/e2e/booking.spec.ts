import { readFileSync } from 'node:fs';
import {
  expect,
  test,
  type APIRequestContext,
  type BrowserContext,
  type FrameLocator,
  type Page,
} from '@playwright/test';
import { checkA11y, E2E_PORT, tenantUrl } from './helpers.ts';
import { day } from '../fixtures/dates.ts';

const CONTROL = process.env['MOCK_CONTROL_URL'] ?? 'http://127.0.0.1:4009';
const HARBOUR = 'harbour-times';
const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const ALPINE_LODGE = '2f7e65da-5ffa-5e37-b3a8-dd6d533190d1';
const ALLOWED_PARTNER = 'http://127.0.0.1:4322';

interface DemoAccounts {
  lodging: Record<string, { readToken: string; fullToken: string }>;
}
const accounts = JSON.parse(readFileSync('mock/demo-accounts.json', 'utf8')) as DemoAccounts;
/** Every lodging token and its secret half: none may reach the browser. */
const SECRETS = Object.values(accounts.lodging).flatMap((a) =>
  [a.readToken, a.fullToken].flatMap((t) => [t, t.split('|')[1] ?? t]),
);

// Each test books its own nights, ~200 days out, so runs and tests never collide.
const BASE = 200;

type Scope = Page | FrameLocator;

/** Node's request context cannot resolve `*.localhost`: API calls use the path-prefix tenant. */
const SITE = `http://127.0.0.1:${E2E_PORT}`;
const siteUrl = (path: string): string => `${SITE}/${HARBOUR}${path}`;

async function lodgingStats(request: APIRequestContext): Promise<Record<string, number>> {
  const stats = (await (await request.get(`${CONTROL}/stats`)).json()) as {
    lodging: { routes: Record<string, number> };
  };
  return stats.lodging.routes;
}

async function setFaults(request: APIRequestContext, faults: Record<string, unknown>) {
  expect(
    (await request.post(`${CONTROL}/faults`, { data: { service: 'lodging', ...faults } })).ok(),
  ).toBe(true);
}

async function clearFaults(request: APIRequestContext) {
  expect((await request.delete(`${CONTROL}/faults`)).ok()).toBe(true);
}

/** Collects every response body and header that contains a lodging token. */
function watchForTokens(context: BrowserContext): () => Promise<string[]> {
  const pending: Promise<void>[] = [];
  const leaks: string[] = [];
  let seen = 0;
  context.on('response', (response) => {
    seen += 1;
    pending.push(
      (async () => {
        const headers = JSON.stringify(await response.allHeaders());
        let body = '';
        try {
          body = (await response.body()).toString('utf8');
        } catch {
          // Redirects and aborted requests have no body.
        }
        for (const secret of SECRETS) {
          if (headers.includes(secret)) leaks.push(`${response.url()} header`);
          if (body.includes(secret)) leaks.push(`${response.url()} body`);
        }
      })(),
    );
  });
  return async () => {
    await Promise.all(pending);
    expect(seen).toBeGreaterThan(5);
    return leaks;
  };
}

// Alpine Post's widget speaks German (its tenant's locale), the others English.
async function chooseDates(scope: Scope, checkIn: string, checkOut: string) {
  await scope.getByLabel(/^(Check-in|Anreise)$/).fill(checkIn);
  await scope.getByLabel(/^(Check-out|Abreise)$/).fill(checkOut);
  await scope.getByRole('button', { name: /^(Continue|Weiter)$/ }).click();
}

async function chooseGuests(scope: Scope, adults: number, children: number) {
  await expect(scope.getByRole('heading', { name: 'Who is coming?' })).toBeFocused();
  await scope.getByLabel('Adults').fill(String(adults));
  await scope.getByLabel('Children').fill(String(children));
  await scope.getByRole('button', { name: 'Show rooms' }).click();
}

async function chooseRoom(scope: Scope, room: RegExp) {
  await expect(scope.getByRole('heading', { name: 'Choose a room' })).toBeFocused();
  await scope.getByRole('radio', { name: room }).check();
  await scope.getByRole('button', { name: 'Continue' }).click();
}

interface Guest {
  first: string;
  last: string;
  email: string;
  phone?: string;
  nationality?: string;
}

async function fillDetails(scope: Scope, guest: Guest) {
  await expect(scope.getByRole('heading', { name: 'Your details' })).toBeFocused();
  await scope.getByLabel('First name').fill(guest.first);
  await scope.getByLabel('Last name').fill(guest.last);
  await scope.getByLabel('E-mail').fill(guest.email);
  if (guest.phone) await scope.getByLabel('Phone (optional)').fill(guest.phone);
  if (guest.nationality) {
    await scope.getByLabel('Nationality (optional)').selectOption(guest.nationality);
  }
  await scope.getByRole('button', { name: 'Review' }).click();
  await expect(scope.getByRole('heading', { name: 'Check and book' })).toBeFocused();
}

async function toReview(scope: Scope, checkIn: string, checkOut: string, guest: Guest) {
  await chooseDates(scope, checkIn, checkOut);
  await chooseGuests(scope, 2, 0);
  await chooseRoom(scope, /Standard Double/);
  await fillDetails(scope, guest);
}

async function expectConfirmed(scope: Scope): Promise<string> {
  await expect(scope.getByRole('heading', { name: 'Request received' })).toBeFocused();
  const text = await scope.locator('[data-confirmation]').innerText();
  const reference = /BK-[A-Z0-9]{6}/.exec(text)?.[0];
  expect(reference, text).toBeTruthy();
  return reference!;
}

async function available(
  request: APIRequestContext,
  checkIn: string,
  checkOut: string,
  roomName: string,
): Promise<number> {
  const params = new URLSearchParams({
    property: HARBOUR_VIEW,
    checkIn,
    checkOut,
    adults: '2',
    children: '0',
  });
  const response = await request.get(siteUrl(`/api/booking/availability?${params}`));
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as {
    data: { rooms: { name: string; availableRooms: number }[] };
  };
  return body.data.rooms.find((r) => r.name === roomName)?.availableRooms ?? -1;
}

test.beforeAll(async ({ request }) => {
  await request.post(`${CONTROL}/reset`);
});

test.afterEach(async ({ request }) => {
  await clearFaults(request);
});

test('a visitor books a room on /stay, and no response carries the lodging token', async ({
  page,
  context,
}) => {
  const leaks = watchForTokens(context);
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.getByRole('heading', { name: 'Stay with us' })).toBeVisible();
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await checkA11y(page);
  await page.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await page.getByLabel('Check-in').fill(day(BASE));
  await page.getByLabel('Check-out').fill(day(BASE + 3));
  await expect(page.getByText('3 nights')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await chooseGuests(page, 2, 1);
  await expect(page.getByRole('radio', { name: /Single Cabin/ })).toBeDisabled();
  await checkA11y(page);
  await chooseRoom(page, /Sea View Suite/);
  await fillDetails(page, {
    first: 'Grace',
    last: 'Hopper',
    email: `grace.${Date.now()}@example.com`,
    phone: '+1 202 555 0100',
    nationality: 'US',
  });
  const review = page.locator('[data-review]');
  await expect(review).toContainText('Sea View Suite');
  await expect(review).toContainText('2 adults, 1 child');
  await expect(review).toContainText('United States');
  await checkA11y(page);
  await page.getByRole('button', { name: 'Book' }).click();
  await expectConfirmed(page);
  const confirmation = page.locator('[data-confirmation]');
  await expect(confirmation).toContainText('Sea View Suite');
  await expect(confirmation).toContainText('Harbour View Hotel');
  await expect(confirmation).toContainText('2 adults, 1 child');
  await expect(confirmation).toContainText('€');
  await checkA11y(page);
  // Printed, the confirmation is the booking alone: no step list, no buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(confirmation).toBeVisible();
  await expect(page.getByRole('list', { name: 'Booking steps' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Add to calendar' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByRole('list', { name: 'Booking steps' })).toBeVisible();

  // A reload on the confirmation shows it again and sends nothing.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Request received' })).toBeVisible();
  expect(await leaks()).toEqual([]);
});

test('the widget works under a path-prefix tenant', async ({ page }) => {
  await page.goto(`http://localhost:${E2E_PORT}/harbour-times/stay`);
  // Every step's form stays under the tenant's prefix.
  await expect(page.locator('masthead-booking form')).toHaveAttribute(
    'action',
    '/harbour-times/stay',
  );
  await chooseDates(page, day(BASE + 40), day(BASE + 42));
  await chooseGuests(page, 1, 0);
  await expect(page.getByRole('radio', { name: /Standard Double/ })).toBeEnabled();
});

test('with a 24 px default font the room choices grow with their text; the whole card picks', async ({
  page,
}) => {
  // Before: the radio buttons stayed the browser's 13 px beside 26 px room names.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: 24, fixed: 20 } });
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await chooseDates(page, day(BASE + 90), day(BASE + 91));
  await chooseGuests(page, 1, 0);
  const radio = page.getByRole('radio', { name: /Standard Double/ });
  const box = (await radio.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(24);
  expect(box.height).toBeGreaterThanOrEqual(24);
  const card = page.locator('.room', { has: radio });
  // A click on the prices lands on the name's label stretched over the card (so no actionability check).
  await card.locator('.room-facts').click({ force: true });
  await expect(radio).toBeChecked();
});

test('availability shrinks after a booking for the same nights', async ({ page, request }) => {
  const [checkIn, checkOut] = [day(BASE + 10), day(BASE + 12)];
  const before = await available(request, checkIn, checkOut, 'Standard Double');
  expect(before).toBeGreaterThan(1);
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await toReview(page, checkIn, checkOut, {
    first: 'Ada',
    last: 'Lovelace',
    email: `ada.${Date.now()}@example.com`,
  });
  await page.getByRole('button', { name: 'Book' }).click();
  await expectConfirmed(page);
  expect(await available(request, checkIn, checkOut, 'Standard Double')).toBe(before - 1);
  // Overlapping nights shrink too; the night after check-out does not.
  expect(await available(request, day(BASE + 11), day(BASE + 13), 'Standard Double')).toBe(
    before - 1,
  );
  expect(await available(request, checkOut, day(BASE + 13), 'Standard Double')).toBe(before);
});

test('invalid input at each step shows field messages', async ({ page, request }) => {
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  const checkIn = page.getByLabel('Check-in');
  const checkOut = page.getByLabel('Check-out');

  // Dates: missing, in the past, too far ahead, reversed, too long.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Choose a check-in date.')).toBeVisible();
  await expect(page.getByText('Choose a check-out date.')).toBeVisible();
  await expect(checkIn).toHaveAttribute('aria-invalid', 'true');
  await expect(checkIn).toBeFocused();
  await checkIn.fill(day(-2));
  await checkOut.fill(day(1));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Check-in cannot be in the past.')).toBeVisible();
  await checkIn.fill('9999-01-01');
  await checkOut.fill('9999-01-03');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Check-in can be at most two years from today.')).toBeVisible();
  await checkIn.fill(day(BASE + 20));
  await checkOut.fill(day(BASE + 19));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Check-out must be after check-in.')).toBeVisible();
  await checkOut.fill(day(BASE + 45));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('The maximum stay is 21 nights.')).toBeVisible();
  await checkOut.fill(day(BASE + 22));
  await page.getByRole('button', { name: 'Continue' }).click();

  // Guests: no adult, too many people for any room.
  await page.getByLabel('Adults').fill('0');
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await expect(page.getByText('At least one adult must stay.')).toBeVisible();
  await expect(page.getByLabel('Adults')).toBeFocused();
  await page.getByLabel('Adults').fill('2');
  await page.getByLabel('Children').fill('9');
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await expect(page.locator('#booking-children-error')).toContainText('at most');
  await page.getByLabel('Children').fill('0');
  await page.getByRole('button', { name: 'Show rooms' }).click();

  // Rooms: none chosen.
  await expect(page.getByRole('heading', { name: 'Choose a room' })).toBeFocused();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Choose a room.')).toBeVisible();
  await page.getByRole('radio', { name: /Standard Double/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Details: names missing, bad e-mail and phone.
  await page.getByLabel('E-mail').fill('not-an-email');
  await page.getByLabel('Phone (optional)').fill('0123');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByText('Enter your first name.')).toBeVisible();
  await expect(page.getByText('Enter your last name.')).toBeVisible();
  await expect(page.getByText('Enter an e-mail address such as name@example.com.')).toBeVisible();
  await expect(page.getByText(/international format/).last()).toBeVisible();
  await expect(page.getByLabel('First name')).toBeFocused();
  await checkA11y(page);

  // The minimum stay comes from the tenant (alpine-post: 2 nights).
  await page.goto(tenantUrl('alpine-post', '/stay'));
  await chooseDates(page, day(BASE + 20), day(BASE + 21));
  await expect(page.getByText('Der Mindestaufenthalt beträgt 2 Nächte.')).toBeVisible();

  // The server applies the same rules (and zod) to JSON posted to it.
  const response = await request.post(siteUrl('/api/booking/bookings'), {
    headers: { Origin: SITE },
    data: {
      idempotencyKey: `test${Date.now()}abcdefgh`,
      propertyId: HARBOUR_VIEW,
      roomTypeId: 'x',
      checkIn: day(BASE + 30),
      checkOut: day(BASE + 31),
      adults: 1,
      children: 0,
      firstName: 'A',
      lastName: 'B',
      email: 'nope',
      phone: '12',
      nationality: 'QQ',
      notes: '',
    },
  });
  expect(response.status()).toBe(422);
  const body = (await response.json()) as { error: { fields: Record<string, string[]> } };
  expect(Object.keys(body.error.fields).sort()).toEqual([
    'email',
    'nationality',
    'phone',
    'roomTypeId',
  ]);
});

test('with the lodging service failing the form keeps its values, and a retry succeeds', async ({
  page,
  request,
}) => {
  const [checkIn, checkOut] = [day(BASE + 50), day(BASE + 53)];
  const email = `retry.${Date.now()}@example.com`;
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await chooseDates(page, checkIn, checkOut);

  // Down while searching: a clear message, nothing lost, retry after it is back.
  await setFaults(request, { down: true });
  await page.getByLabel('Adults').fill('2');
  await page.getByRole('button', { name: 'Show rooms' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'temporarily unavailable' });
  await expect(alert).toBeVisible();
  await expect(page.getByLabel('Adults')).toHaveValue('2');
  await clearFaults(request);
  await page.getByRole('button', { name: 'Try again' }).click();
  await chooseRoom(page, /Standard Double/);
  await fillDetails(page, { first: 'Retry', last: 'Person', email, phone: '+44 20 7946 0958' });

  // 500s while booking.
  await setFaults(request, { errorRate: 1 });
  await page.getByRole('button', { name: 'Book' }).click();
  await expect(alert).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Check and book' })).toBeVisible();
  await page.getByRole('button', { name: 'Change details' }).click();
  await expect(page.getByLabel('First name')).toHaveValue('Retry');
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await expect(page.getByLabel('Phone (optional)')).toHaveValue('+44 20 7946 0958');
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Book' }).click();
  await expect(alert).toBeVisible();

  await clearFaults(request);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expectConfirmed(page);
});

test('a double-clicked Book creates one booking', async ({ page, request }) => {
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await toReview(page, day(BASE + 60), day(BASE + 62), {
    first: 'Double',
    last: 'Click',
    email: `double.${Date.now()}@example.com`,
  });
  // The room the review is about (a hidden field of its form), for the race below.
  const room = await page.locator('input[name="roomTypeId"]').inputValue();
  const before = (await lodgingStats(request))['POST /bookings'] ?? 0;
  await page.getByRole('button', { name: 'Book' }).dblclick();
  await expectConfirmed(page);

  // Two simultaneous posts with one key (a retry racing the first) also book once.
  const origin = new URL(page.url()).origin;
  const references = await page.evaluate(
    async ({ origin, property, room, checkIn, checkOut }) => {
      const body = JSON.stringify({
        idempotencyKey: `race${Date.now()}0123456789`,
        propertyId: property,
        roomTypeId: room,
        checkIn,
        checkOut,
        adults: 1,
        children: 0,
        firstName: 'Race',
        lastName: 'Condition',
        email: `race.${Date.now()}@example.com`,
        phone: '',
        nationality: '',
        notes: '',
      });
      const post = () =>
        fetch(`${origin}/api/booking/bookings`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        }).then((r) => r.json() as Promise<{ data: { reference: string } }>);
      const results = await Promise.all([post(), post()]);
      return results.map((r) => r.data.reference);
    },
    { origin, property: HARBOUR_VIEW, room, checkIn: day(BASE + 64), checkOut: day(BASE + 65) },
  );
  expect(references[0]).toBe(references[1]);
  expect((await lodgingStats(request))['POST /bookings']).toBe(before + 2);
});

test('a partner page books through the one-tag embed and hears about it', async ({
  page,
  context,
}) => {
  const leaks = watchForTokens(context);
  const query = new URLSearchParams({
    site: tenantUrl(HARBOUR, '').replace(/\/$/, ''),
    property: HARBOUR_VIEW,
    'check-in': day(BASE + 70),
    'check-out': day(BASE + 73),
    adults: '2',
  });
  await page.goto(`${ALLOWED_PARTNER}/?${query}`);
  const iframe = page.locator('iframe');
  await expect(iframe).toHaveAttribute('title', 'Book a stay');
  const frame = page.frameLocator('iframe');
  // Prefilled from data-* attributes.
  await expect(frame.getByLabel('Check-in')).toHaveValue(day(BASE + 70));
  await checkA11y(page);
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByLabel('Adults')).toHaveValue('2');
  await frame.getByRole('button', { name: 'Show rooms' }).click();
  await chooseRoom(frame, /Standard Double/);
  await fillDetails(frame, {
    first: 'Partner',
    last: 'Guest',
    email: `partner.${Date.now()}@example.com`,
    nationality: 'DE',
  });
  await frame.getByRole('button', { name: 'Book' }).click();
  const reference = await expectConfirmed(frame);

  const messages = await page.evaluate(
    () => (window as unknown as { confirmations: unknown[] }).confirmations,
  );
  expect(messages).toEqual([
    {
      origin: tenantUrl(HARBOUR, '').replace(/\/$/, ''),
      booking: expect.objectContaining({ reference, propertyId: HARBOUR_VIEW }) as unknown,
    },
  ]);
  // Partner events, ready for a dataLayer push: search, room chosen, booked with value and currency.
  const events = await page.evaluate(() => (window as unknown as { events: unknown[] }).events);
  expect(events).toEqual([
    expect.objectContaining({ event: 'masthead_search', checkIn: day(BASE + 70), adults: 2 }),
    expect.objectContaining({ event: 'masthead_room_chosen', currency: 'EUR' }),
    expect.objectContaining({
      event: 'masthead_booked',
      transaction_id: reference,
      currency: 'EUR',
    }),
  ]);
  const booked = events[2] as { value: number };
  expect(booked.value).toBeGreaterThan(0);
  // No personal data: the guest's name and address stay in the frame.
  expect(JSON.stringify(events)).not.toMatch(/Partner|Guest|@example\.com/);
  // The iframe follows its content's height (capped), instead of the 720 px fallback.
  await expect
    .poll(async () =>
      Number.parseInt(await iframe.evaluate((f: HTMLIFrameElement) => f.style.height), 10),
    )
    .not.toBe(720);
  const height = Number.parseInt(
    await iframe.evaluate((f: HTMLIFrameElement) => f.style.height),
    10,
  );
  expect(height).toBeGreaterThanOrEqual(240);
  expect(height).toBeLessThanOrEqual(4000);
  expect(await leaks()).toEqual([]);
});

// The embed on a foreign origin, a bad data-property and narrow frames: tests/e2e/embed.spec.ts.

test('booking posts from another origin are refused', async ({ request }) => {
  const response = await request.post(siteUrl('/api/booking/bookings'), {
    headers: { Origin: ALLOWED_PARTNER },
    data: { idempotencyKey: 'x' },
  });
  expect(response.status()).toBe(403);
});

test('a booking endpoint asked with a method it does not take answers JSON 405, not the 404 page', async ({
  request,
}) => {
  for (const [response, allow] of [
    // From the site's own origin: a bodiless write from elsewhere is refused before (cross-site).
    [
      await request.delete(siteUrl('/api/booking/availability'), { headers: { Origin: SITE } }),
      'GET, HEAD',
    ],
    [await request.get(siteUrl('/api/booking/bookings')), 'POST'],
  ] as const) {
    expect(response.status()).toBe(405);
    expect(response.headers()['allow']).toBe(allow);
    const body = (await response.json()) as { ok: boolean; error: { code: string } };
    expect(body).toMatchObject({ ok: false, error: { code: 'method_not_allowed' } });
  }
  // HEAD is still the GET's answer (without a body).
  expect((await request.head(siteUrl('/api/booking/properties'))).status()).toBe(200);
});

// Alpine Post has its own lodging account, so the 429 (which blocks that account's budget for its
// Retry-After) leaves the other tests' tenant alone; last in the file all the same.
test('an upstream 429 shows "busy, try again in N seconds", never an error page', async ({
  page,
  request,
}) => {
  await page.goto(tenantUrl('alpine-post', '/stay'));
  await chooseDates(page, day(BASE + 80), day(BASE + 82));
  await setFaults(request, { force429: true });
  await page.getByLabel('Erwachsene').fill('1');
  await page.getByRole('button', { name: 'Zimmer anzeigen' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: /viel los.*in \d+ Sekunden erneut/ }),
  ).toBeVisible();
  // While the wait it names runs, no "Try again" that could only fail again.
  await expect(page.locator('[data-retry-after]')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Noch einmal versuchen' })).toHaveCount(0);
  await expect(page.getByLabel('Erwachsene')).toHaveValue('1');
  const params = new URLSearchParams({
    property: ALPINE_LODGE,
    checkIn: day(BASE + 84),
    checkOut: day(BASE + 86),
    adults: '1',
  });
  const response = await request.get(`${SITE}/alpine-post/api/booking/availability?${params}`);
  expect(response.status()).toBe(429);
  expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('busy');
});
