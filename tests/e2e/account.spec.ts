import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { checkA11y, E2E_PORT, tenantUrl } from './helpers.ts';

// Subscriber accounts: register, log in and out, the account page, per tenant, with or without JavaScript.

const TENANT = 'daily-planet';
const PASSWORD = 'masthead-demo';
/** A publishing token as the API issues it (Sanctum style): none may reach the browser. */
const TOKEN_SHAPE = /\d+\|[A-Za-z0-9]{40}/;
/** Where the Node adapter's default session driver keeps sessions (relative to the server's cwd). */
const SESSIONS_DIR = 'node_modules/.astro/sessions';

const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Records every response the browser receives; `check()` fails on any token in a header or body. */
function watchResponses(context: BrowserContext) {
  const pending: Promise<void>[] = [];
  const seen: { url: string; text: string }[] = [];
  const secrets = new Set<string>();
  context.on('response', (response) => {
    pending.push(
      (async () => {
        let body = '';
        try {
          body = (await response.body()).toString('utf8');
        } catch {
          // Redirects have no body.
        }
        seen.push({
          url: response.url(),
          text: `${JSON.stringify(await response.allHeaders())}\n${body}`,
        });
      })(),
    );
  });
  return {
    /** Reads the tokens the server keeps in this context's sessions right now (while signed in). */
    async rememberSessionTokens() {
      const before = secrets.size;
      for (const cookie of await context.cookies()) {
        if (cookie.name !== 'astro-session') continue;
        const file = `${SESSIONS_DIR}/${cookie.value}`;
        if (!existsSync(file)) continue;
        for (const token of readFileSync(file, 'utf8').match(new RegExp(TOKEN_SHAPE, 'g')) ?? []) {
          secrets.add(token);
          secrets.add(token.split('|')[1]!);
        }
      }
      // With the default on-disk driver the exact token is known; with another driver only its shape.
      if (existsSync(SESSIONS_DIR))
        expect(secrets.size, 'token read from the session').toBeGreaterThan(before);
    },
    async check(minResponses = 3) {
      await Promise.all(pending);
      expect(seen.length).toBeGreaterThanOrEqual(minResponses);
      const leaks = seen.flatMap(({ url, text }) => [
        ...(TOKEN_SHAPE.test(text) ? [`${url}: token-shaped value`] : []),
        ...[...secrets]
          .filter((secret) => text.includes(secret))
          .map(() => `${url}: session token`),
      ]);
      expect(leaks).toEqual([]);
    },
  };
}

async function logIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Fills and sends the registration form (the same password twice). */
async function register(page: Page, name: string, email: string, password: string) {
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

async function logOut(page: Page) {
  await page.getByRole('main').getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('status')).toHaveText('You have logged out.');
}

async function expectAccount(page: Page, name: string, email: string, plan: 'paid' | 'free') {
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: name })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: email })).toBeVisible();
  await expect(page.locator('[data-subscription]')).toHaveAttribute('data-subscription', plan);
  await expect(page.locator('[data-subscription]')).toContainText(
    plan === 'paid' ? 'Paid subscription' : 'Free account',
  );
}

test('register, log out, log in again: a free account, and no token ever reaches the browser', async ({
  page,
  context,
}) => {
  const watch = watchResponses(context);
  const email = unique('new-reader');

  await page.goto(tenantUrl(TENANT, '/register'));
  await checkA11y(page);
  await register(page, 'Nora New', email, 'a long password');

  await expect(page).toHaveURL(tenantUrl(TENANT, '/account'));
  await expectAccount(page, 'Nora New', email, 'free');
  await expect(page.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/plans');
  await watch.rememberSessionTokens();
  const account = await page.goto(tenantUrl(TENANT, '/account'));
  expect(account?.headers()['cache-control']).toBe('private, no-store');
  await checkA11y(page);

  // The session cookie only carries an id: HttpOnly, Secure, not the token.
  const cookie = (await context.cookies()).find((c) => c.name === 'astro-session');
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });
  expect(cookie!.value).not.toMatch(TOKEN_SHAPE);

  await logOut(page);
  await page.goto(tenantUrl(TENANT, '/account'));
  await expect(page).toHaveURL(tenantUrl(TENANT, '/login?next=%2Faccount'));

  await logIn(page, email, 'a long password');
  await expect(page).toHaveURL(tenantUrl(TENANT, '/account'));
  await expectAccount(page, 'Nora New', email, 'free');
  await watch.rememberSessionTokens();

  // Someone registering the same address again (another password: the same one signs in to the
  // account): the site's own words for the API's "taken", the name kept.
  await logOut(page);
  await page.goto(tenantUrl(TENANT, '/register'));
  await register(page, 'Nora Again', email, 'not her password');
  await expect(page.getByLabel('E-mail address')).toHaveAccessibleDescription(
    /An account with this e-mail address already exists\./,
  );
  await expect(page.getByLabel('Name')).toHaveValue('Nora Again');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await checkA11y(page);

  await watch.check(10);
});

test('the paying subscriber sees "paid", coming back to the page that asked for a login', async ({
  page,
  context,
}) => {
  const watch = watchResponses(context);
  await page.goto(tenantUrl(TENANT, '/account'));
  await expect(page).toHaveURL(tenantUrl(TENANT, '/login?next=%2Faccount'));
  await logIn(page, 'subscriber@masthead.test');
  await expect(page).toHaveURL(tenantUrl(TENANT, '/account'));
  await expectAccount(page, 'Sam Subscriber', 'subscriber@masthead.test', 'paid');
  await watch.rememberSessionTokens();
  await checkA11y(page);

  // Signed in, /login goes straight on; `next` never leaves the site.
  await page.goto(tenantUrl(TENANT, '/login?next=//evil.example/steal'));
  await expect(page).toHaveURL(tenantUrl(TENANT, '/account'));
  await logOut(page);
  await page.goto(tenantUrl(TENANT, '/login?next=https://evil.example/'));
  await logIn(page, 'subscriber@masthead.test');
  await expect(page).toHaveURL(tenantUrl(TENANT, '/account'));
  // Before: `/.//evil.example` passed the check on the raw string, answered `Location: //evil.example`.
  await logOut(page);
  await page.goto(tenantUrl(TENANT, `/login?next=${encodeURIComponent('/.//evil.example')}`));
  await logIn(page, 'subscriber@masthead.test');
  await expect(page).toHaveURL(tenantUrl(TENANT, '/account'));
  await page.goto(tenantUrl(TENANT, '/login?next=%2Fplans'));
  await expect(page).toHaveURL(tenantUrl(TENANT, '/plans'));

  await watch.check();
});

test('a wrong password keeps the e-mail and says what went wrong, in an accessible summary', async ({
  page,
}) => {
  await page.goto(tenantUrl(TENANT, '/login'));
  await logIn(page, 'reader@masthead.test', 'not-the-password');

  const summary = page.getByRole('alert');
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('We could not log you in.');
  await expect(summary.getByRole('link')).toHaveText(
    'The e-mail address or the password is not right.',
  );
  const emailField = page.getByLabel('E-mail address');
  await expect(emailField).toHaveValue('reader@masthead.test');
  await expect(emailField).toHaveAttribute('aria-invalid', 'true');
  await expect(emailField).toHaveAccessibleDescription(
    /The e-mail address or the password is not right\./,
  );
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  expect(await page.content()).not.toContain('not-the-password');
  await checkA11y(page);

  // The summary links to the field.
  await summary.getByRole('link').click();
  await expect(emailField).toBeFocused();

  // Corrected, the same form signs in.
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expectAccount(page, 'Riley Reader', 'reader@masthead.test', 'free');
});

/** Upstream sign-ins so far, from the mock's control server. */
async function upstreamLogins(page: Page): Promise<number> {
  const stats = (await (await page.request.get('http://127.0.0.1:4009/stats')).json()) as {
    publishing: { routes: Record<string, number> };
  };
  return stats.publishing.routes['POST /auth/login'] ?? 0;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`POST → 303 → GET (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, () => {
    test.use({ javaScriptEnabled });

    test('a refused sign-in is answered with a redirect: reload and Back send it no second time', async ({
      page,
    }) => {
      await page.goto(tenantUrl(TENANT, '/login?next=%2Fplans'));
      const before = await upstreamLogins(page);
      const [posted] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        logIn(page, 'reader@masthead.test', 'not-the-password'),
      ]);
      expect(posted.status()).toBe(303);
      await expect(page).toHaveURL(/\/login\?next=%2Fplans&posted=[\w-]{16}$/);
      // The typed e-mail and the page to go on to (in the form's address) survive the redirect;
      // the password never does.
      await expect(page.getByLabel('E-mail address')).toHaveValue('reader@masthead.test');
      await expect(page.getByRole('alert')).toContainText('We could not log you in.');
      await expect(page.locator('form#login')).toHaveAttribute(
        'action',
        '/login?next=%2Fplans&_action=login',
      );
      expect(await upstreamLogins(page)).toBe(before + 1);

      // The reloaded page still knows where the reader was going (before: plain `/login`, so the
      // sign-in ended on the account page), and so does its link to the registration form.
      await page.reload();
      await expect(page).toHaveURL(tenantUrl(TENANT, '/login?next=%2Fplans'));
      await expect(page.getByRole('link', { name: 'Create a free account' })).toHaveAttribute(
        'href',
        '/register?next=%2Fplans',
      );
      await page.goBack();
      await expect(page).toHaveURL(tenantUrl(TENANT, '/login?next=%2Fplans'));
      expect(await upstreamLogins(page)).toBe(before + 1);

      // Corrected, it signs in and goes on to the page that asked.
      await logIn(page, 'reader@masthead.test');
      await expect(page).toHaveURL(tenantUrl(TENANT, '/plans'));
      expect(await upstreamLogins(page)).toBe(before + 2);
    });
  });
}

test.describe('without JavaScript', () => {
  // (axe needs JavaScript: the same pages are checked in the tests above.)
  test.use({ javaScriptEnabled: false });

  test('register shows every message and keeps the typing; login, account and logout work', async ({
    page,
  }) => {
    const email = unique('no-js');
    await page.goto(tenantUrl('harbour-times', '/register'));
    await page.getByLabel('E-mail address').fill('not-an-address');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Repeat the password').fill('other');
    await page.getByRole('button', { name: 'Create account' }).click();

    const summary = page.getByRole('alert');
    await expect(summary.getByRole('link')).toHaveText([
      'Enter your name.',
      'Enter an e-mail address like name@example.com.',
      'Use at least 8 characters.',
      'The two passwords do not match.',
    ]);
    await expect(page.getByLabel('E-mail address')).toHaveValue('not-an-address');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(
      /At least 8 characters\..*Use at least 8 characters\./,
    );

    await register(page, 'Jo Plain', email, 'plain html works');
    await expectAccount(page, 'Jo Plain', email, 'free');

    await logOut(page);
    await logIn(page, email, 'plain html works');
    await expectAccount(page, 'Jo Plain', email, 'free');
  });
});

test.describe('what the header and the account page tell each kind of account', () => {
  for (const { who, email, subscribe, standing } of [
    {
      who: 'a free reader',
      email: 'reader@masthead.test',
      subscribe: 1,
      standing: 'Kostenloses Konto',
    },
    {
      who: 'a paying subscriber',
      email: 'subscriber@masthead.test',
      subscribe: 0,
      standing: 'Bezahltes Abonnement',
    },
    { who: 'an editor', email: 'editor@masthead.test', subscribe: 0, standing: 'Redaktionskonto' },
    { who: 'an admin', email: 'admin@masthead.test', subscribe: 0, standing: 'Administratorkonto' },
  ]) {
    test(`${who}: Subscribe in the bar ${subscribe ? 'offered' : 'not offered'}, the account says what it is, in German`, async ({
      page,
    }) => {
      await page.goto(tenantUrl('alpine-post', '/login?next=%2F'));
      await page.getByLabel('E-Mail-Adresse').fill(email);
      await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
      await page.getByRole('main').getByRole('button', { name: 'Anmelden' }).click();
      await expect(page).toHaveURL(tenantUrl('alpine-post', '/'));
      const header = page.locator('.site-header');
      await expect(header.getByRole('link', { name: /Ihr Konto/ })).toBeVisible();
      await expect(header.getByRole('link', { name: 'Abonnieren' })).toHaveCount(subscribe);
      await page.goto(tenantUrl('alpine-post', '/account'));
      await expect(page.locator('[data-subscription] strong')).toHaveText(standing);
    });
  }
});

test('a session on one tenant signs nobody in on another (path-prefix tenants share a cookie)', async ({
  page,
  context,
}) => {
  const site = `http://localhost:${E2E_PORT}`;
  const watch = watchResponses(context);
  await page.goto(`${site}/harbour-times/login`);
  await expect(page.locator('form#login')).toHaveAttribute(
    'action',
    '/harbour-times/login?next=%2Faccount&_action=login',
  );
  await logIn(page, 'subscriber@masthead.test');
  await expect(page).toHaveURL(`${site}/harbour-times/account`);
  await expectAccount(page, 'Sam Subscriber', 'subscriber@masthead.test', 'paid');
  await watch.rememberSessionTokens();

  await page.goto(`${site}/daily-planet/account`);
  await expect(page).toHaveURL(`${site}/daily-planet/login?next=%2Faccount`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in to Daily Planet');

  // Logging in on the second tenant, then out of it, leaves the first one signed in.
  await logIn(page, 'reader@masthead.test');
  await expect(page).toHaveURL(`${site}/daily-planet/account`);
  await expectAccount(page, 'Riley Reader', 'reader@masthead.test', 'free');
  await logOut(page);
  await expect(page).toHaveURL(`${site}/daily-planet/login?signed-out=`);
  await page.goto(`${site}/harbour-times/account`);
  await expectAccount(page, 'Sam Subscriber', 'subscriber@masthead.test', 'paid');

  // GET /logout only offers the button.
  await page.goto(`${site}/harbour-times/logout`);
  await page.goto(`${site}/harbour-times/account`);
  await expectAccount(page, 'Sam Subscriber', 'subscriber@masthead.test', 'paid');

  await watch.check();
});

interface Answer {
  status: number;
  body: string;
  location: string | undefined;
  cookie: string | undefined;
}

/** One request from a loopback address of our own choosing. */
function send(
  from: string,
  path: string,
  options: { body?: string; cookie?: string | undefined } = {},
): Promise<Answer> {
  const { body, cookie } = options;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: E2E_PORT,
        path,
        method: body === undefined ? 'GET' : 'POST',
        localAddress: from,
        headers: {
          ...(body === undefined
            ? {}
            : {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': Buffer.byteLength(body),
                origin: `http://127.0.0.1:${E2E_PORT}`,
              }),
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            location: res.headers.location,
            cookie: res.headers['set-cookie']?.map((c) => c.split(';')[0]).join('; '),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A sign-in form POST from a loopback address of our own choosing (so the per-IP limit is this
 * test's alone), then the GET its `303` lands on, with the session cookie: the landing's answer.
 */
async function postLogin(from: string, fields: Record<string, string>): Promise<Answer> {
  const posted = await send(from, '/alpine-post/login?_action=login', {
    body: new URLSearchParams(fields).toString(),
  });
  expect(posted.status).toBe(303);
  expect(posted.location).toMatch(/^\/alpine-post\/login\?posted=[\w-]{16}$/);
  return send(from, posted.location!, { cookie: posted.cookie });
}

test('repeated wrong passwords from one address get a friendly "too many attempts"', async () => {
  const octet = () => 2 + Math.floor(Math.random() * 250);
  const from = `127.${octet()}.${octet()}.${octet()}`;
  const wrong = { email: 'reader@masthead.test', password: 'guess-again' };

  let refused: { status: number; body: string } | undefined;
  for (let attempt = 0; attempt < 12 && !refused; attempt++) {
    const answer = await postLogin(from, wrong);
    if (answer.status === 429) refused = answer;
    // Alpine Post's German, not the upstream's English sentence.
    else expect(answer.body).toContain('E-Mail-Adresse oder Passwort stimmen nicht.');
  }
  expect(refused, 'no 429 within 12 failed logins').toBeDefined();
  // postLogin signs in to Alpine Post: the message is in its German.
  expect(refused!.body).toMatch(
    /Zu viele Versuche\. Bitte warten Sie \d+ (Minuten|Sekunden) und versuchen Sie es erneut\./,
  );
  expect(refused!.body).toContain('value="reader@masthead.test"');

  // Even the right password waits now; another address is not affected.
  const right = await postLogin(from, { ...wrong, password: PASSWORD });
  expect(right.status).toBe(429);
  const other = await postLogin(`127.1.${octet()}.${octet()}`, { ...wrong, password: PASSWORD });
  // Signed in: the landing goes on to the account.
  expect(other.status).toBe(303);
  expect(other.location).toBe('/alpine-post/account');
});

test('a long name in the bar leaves the paper’s logo whole on wide screens', async ({ page }) => {
  // Before: the name took the bar's width and squeezed the logo to nothing (a name may have 255 characters).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(tenantUrl(TENANT, '/'));
  const logo = page.locator('.site-header .brand img');
  const whole = (await logo.boundingBox())?.width ?? 0;
  expect(whole).toBeGreaterThan(100);

  const name = 'Wolfeschlegelsteinhausenbergerdorff '.repeat(6).trim();
  await page.goto(tenantUrl(TENANT, '/register'));
  await register(page, name, unique('long-name'), 'a long password');
  await expect(page).toHaveURL(tenantUrl(TENANT, '/account'));
  const account = page.getByRole('banner').getByRole('link', { name: /Your account/ });
  await expect(account).toBeVisible();
  for (const width of [1280, 900]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(tenantUrl(TENANT, '/'));
    const box = await logo.boundingBox();
    expect(box?.width, `logo at ${width} px`).toBeGreaterThanOrEqual(whole - 1);
  }
});

test('Back after signing out lands on the sign-in page, not in a loop of remembered redirects', async ({
  page,
}) => {
  const account = tenantUrl(TENANT, '/account');
  await page.goto(tenantUrl(TENANT, '/login?next=%2Faccount'));
  await logIn(page, 'reader@masthead.test');
  await expect(page).toHaveURL(account);
  // Back to the sign-in page, which goes on to the account (signed in already).
  await page.goBack();
  await expect(page).toHaveURL(account);
  await logOut(page);

  // Before: the browser kept both redirects (account → sign-in → account) and replayed them on
  // Back until it gave up: "This page isn’t working".
  await page.goBack();
  await expect(page).toHaveURL(tenantUrl(TENANT, '/login?next=%2Faccount'));
  await expect(page.getByLabel('E-mail address')).toBeVisible();
});

test.describe('Back after signing out, with the browser’s back/forward cache on', () => {
  // Playwright turns Chromium's back/forward cache off (and `launchOptions` cannot change in a
  // describe): a browser of its own, as readers' browsers are.
  let browser: Browser;
  let page: Page;
  test.beforeEach(async ({ playwright, launchOptions }) => {
    browser = await playwright.chromium.launch({
      ...launchOptions,
      ignoreDefaultArgs: ['--disable-back-forward-cache'],
    });
    page = await browser.newPage();
  });
  test.afterEach(() => browser.close());
  const post = tenantUrl(TENANT, '/posts/welcome-to-our-new-website');
  /** Marks the document now shown: the mark is still there only if Back restored it as it was. */
  const mark = () => page.evaluate(() => Reflect.set(window, 'shownBefore', true));
  const restored = () => page.evaluate(() => Reflect.get(window, 'shownBefore') === true);
  /** The name the header shows (`/reader.css` writes it into `.reader-name::before`). */
  const shownName = () =>
    page
      .getByRole('banner')
      .locator('.reader-name')
      .evaluate((name) => getComputedStyle(name, '::before').content);
  /** Back, done once it commits (a page restored from the cache fires no `load`). */
  const back = () => page.goBack({ waitUntil: 'commit' });

  test('a guest’s Back is instant: the page comes back from the cache as it was', async () => {
    await page.goto(post);
    await mark();
    await page.goto(tenantUrl(TENANT, '/'));
    await back();
    await expect(page).toHaveURL(post);
    await expect.poll(restored).toBe(true);
  });

  test('Back after signing in shows the post signed in, not the guest’s copy saying "Log in"', async () => {
    await page.goto(post);
    await mark();
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: 'Log in' }).click();
    await logIn(page, 'reader@masthead.test');
    await expect(page).toHaveURL(post);
    // Back to the sign-in page (which goes on to the post: signed in already), and Back again.
    await back();
    await expect(page).toHaveURL(post);
    await back();

    await expect(page).toHaveURL(post);
    // Before: the guest's page as it was, from the back/forward cache ("Log in", no name).
    await expect(header.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Log in' })).toBeHidden();
    expect(await shownName()).toBe('"Riley Reader"');
    expect(await restored()).toBe(false);
  });

  test('Back from the logout page shows the post signed out, not who was signed in', async () => {
    await page.goto(tenantUrl(TENANT, '/login'));
    await logIn(page, 'reader@masthead.test');
    await expect(page).toHaveURL(tenantUrl(TENANT, '/account'));
    await page.goto(post);
    const header = page.getByRole('banner');
    await expect(header.getByRole('button', { name: 'Log out' })).toBeVisible();
    expect(await shownName()).toBe('"Riley Reader"');
    await mark();

    await header.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('status')).toHaveText('You have logged out.');
    await back();

    await expect(page).toHaveURL(post);
    await expect(header.getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Log out' })).toBeHidden();
    expect(await shownName()).toBe('none');
    expect(await restored()).toBe(false);
  });

  /** The mock's publishing API (its address is the control server's to tell). */
  async function publishingApi(): Promise<string> {
    const control = await fetch('http://127.0.0.1:4009/');
    return ((await control.json()) as { publishingUrl: string }).publishingUrl;
  }

  /** Ends the session's token at the API, as an expiry or a revocation there would. */
  async function expireUpstream() {
    const cookie = (await page.context().cookies()).find((c) => c.name === 'astro-session');
    const token = readFileSync(`${SESSIONS_DIR}/${cookie!.value}`, 'utf8').match(TOKEN_SHAPE)![0];
    const revoked = await fetch(`${await publishingApi()}/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-tenant': TENANT, accept: 'application/json' },
    });
    expect(revoked.ok).toBe(true);
  }

  // Before: the expired sign-in was dropped under the same session id, so the page kept from
  // before (the reader's name in the header) came back from the cache as it was.
  for (const { where, open } of [
    {
      where: 'the account page',
      open: async () => {
        await page.goto(tenantUrl(TENANT, '/account'));
        // Before: a bare login page, the reader left to guess why.
        await expect(page.getByText('Your session has ended, please log in again.')).toBeVisible();
        expect(new URL(page.url()).searchParams.get('next')).toBe('/account');
      },
    },
    {
      where: 'a subscriber-only e-paper edition',
      open: async () => {
        const editions = await fetch(`${await publishingApi()}/epaper`, {
          headers: { 'x-tenant': TENANT, accept: 'application/json' },
        });
        const newest = ((await editions.json()) as { data: { slug: string }[] }).data[0]!;
        await page.goto(tenantUrl(TENANT, `/epaper/${newest.slug}`));
        await expect(
          page.getByRole('heading', { name: 'This edition is for subscribers' }),
        ).toBeVisible();
        // Before: only "Subscribe to read…", to a reader who may be a subscriber.
        await expect(page.getByText('Your session has ended, please log in again.')).toBeVisible();
      },
    },
  ]) {
    test(`Back from ${where} that found it expired shows nobody signed in`, async () => {
      await page.goto(tenantUrl(TENANT, '/login'));
      await logIn(page, 'subscriber@masthead.test');
      await expect(page).toHaveURL(tenantUrl(TENANT, '/account'));
      await page.goto(post);
      const header = page.getByRole('banner');
      await expect(header.getByRole('button', { name: 'Log out' })).toBeVisible();
      await mark();

      await expireUpstream();
      await open();
      await back();

      await expect(page).toHaveURL(post);
      await expect(header.getByRole('link', { name: 'Log in' })).toBeVisible();
      await expect(header.getByRole('button', { name: 'Log out' })).toBeHidden();
      expect(await restored()).toBe(false);
    });
  }
});

test('the header’s "Log in" on the sign-in pages keeps where the reader was going', async ({
  page,
}) => {
  // Before: plain `/login`, so signing in from there ended on the account page.
  const header = page.getByRole('banner');
  await page.goto(tenantUrl(TENANT, '/register?next=%2Fposts%2Fwelcome-to-our-new-website'));
  await expect(header.getByRole('link', { name: 'Log in' })).toHaveAttribute(
    'href',
    '/login?next=%2Fposts%2Fwelcome-to-our-new-website',
  );
  await header.getByRole('link', { name: 'Log in' }).click();
  await expect(page.getByRole('link', { name: 'Create a free account' })).toHaveAttribute(
    'href',
    '/register?next=%2Fposts%2Fwelcome-to-our-new-website',
  );
  await expect(header.getByRole('link', { name: 'Log in' })).toHaveAttribute(
    'href',
    '/login?next=%2Fposts%2Fwelcome-to-our-new-website',
  );
  await logIn(page, 'reader@masthead.test');
  await expect(page).toHaveURL(tenantUrl(TENANT, '/posts/welcome-to-our-new-website'));
  // An unsafe `next` is not carried on; the account pages themselves come back to nothing.
  await page.goto(tenantUrl(TENANT, '/logout'));
  await page.getByRole('main').getByRole('button', { name: 'Log out' }).click();
  for (const unsafe of ['//evil.example', 'https://evil.example/', '%2F%2Fevil.example']) {
    await page.goto(tenantUrl(TENANT, `/register?next=${unsafe}`));
    await expect(header.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  }
});
