import { rmSync } from 'node:fs';
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
  type Response,
} from '@playwright/test';
import { E2E_PORT, checkA11y, tenantUrl } from './helpers.ts';

// Comment threads and the no-JavaScript comment form on /posts/<slug>.
// Every journey runs with JavaScript off: the form must work as plain HTML.
test.use({ javaScriptEnabled: false });

const API = 'http://127.0.0.1:4010/api/v1';
const CONTROL = 'http://127.0.0.1:4009';
const TENANT = 'daily-planet';
const SLUG = 'welcome-to-our-new-website';
const POST_PATH = `/posts/${SLUG}`;
const PASSWORD = 'masthead-demo';

interface ApiComment {
  id: number;
  content: string;
  author_name: string;
  parent_id: number | null;
  replies: ApiComment[];
}

const unique = (label: string) => `${label} ${Date.now().toString(36)}-${crypto.randomUUID()}`;

async function apiLogin(request: APIRequestContext, role: string): Promise<string> {
  // The mock's public bucket is shared with every e2e run on this machine: wait out a 429.
  for (let attempt = 1; ; attempt += 1) {
    const response = await request.post(`${API}/auth/login`, {
      headers: { 'X-Tenant': TENANT },
      data: { email: `${role}@masthead.test`, password: PASSWORD },
    });
    if (response.status() === 429 && attempt < 3) {
      const wait = Math.min(Number(response.headers()['retry-after'] ?? 5), 10);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      continue;
    }
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { data: { token: string } }).data.token;
  }
}

/** Every approved comment of the post, flattened, straight from the API (no site cache involved). */
async function apiApproved(request: APIRequestContext): Promise<ApiComment[]> {
  const response = await request.get(`${API}/posts/${SLUG}/comments?per_page=50`, {
    headers: { 'X-Tenant': TENANT },
  });
  expect(response.ok()).toBe(true);
  const flat = (list: ApiComment[]): ApiComment[] => list.flatMap((c) => [c, ...flat(c.replies)]);
  return flat(((await response.json()) as { data: ApiComment[] }).data);
}

async function apiPendingId(request: APIRequestContext, token: string, content: string) {
  const response = await request.get(`${API}/comments?status=pending&per_page=50`, {
    headers: { 'X-Tenant': TENANT, Authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as {
    data: { id: number; content: string; parent_id: number | null }[];
    meta: { last_page: number };
  };
  let found = body.data.find((c) => c.content === content);
  // The queue may be longer than one page when many runs share the mock.
  for (let page = 2; !found && page <= body.meta.last_page; page += 1) {
    const next = await request.get(`${API}/comments?status=pending&per_page=50&page=${page}`, {
      headers: { 'X-Tenant': TENANT, Authorization: `Bearer ${token}` },
    });
    found = (
      (await next.json()) as { data: { id: number; content: string; parent_id: number | null }[] }
    ).data.find((c) => c.content === content);
  }
  return found;
}

/** The comment (its `<article>`) by `author` whose own text contains `text`; replies sit outside it. */
function commentBy(page: Page, author: string, text?: string) {
  const articles = page.locator('#comments').getByRole('article', { name: author, exact: true });
  return text ? articles.filter({ hasText: text }) : articles;
}

/** The list of replies to a comment (a sibling of its article, inside the same `<li>`). */
function repliesTo(article: Locator, author: string) {
  return article
    .locator('xpath=..')
    .getByRole('list', { name: `Replies to ${author}`, exact: true });
}

/**
 * axe needs JavaScript, which these journeys turn off: audit a copy of the current page (same
 * address, same styles) in a JavaScript-enabled page.
 */
async function auditCopy(page: Page, browser: Browser): Promise<void> {
  const html = await page.content();
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const copy = await context.newPage();
    await copy.goto(page.url().replace(/\?.*$/, ''));
    await copy.setContent(html, { waitUntil: 'load' });
    await checkA11y(copy);
  } finally {
    await context.close();
  }
}

/**
 * Submits the comment form: the POST is answered `303` to the post page with `?posted=`, whose GET
 * shows the result. Returns the landing GET's response.
 */
async function submit(page: Page, button: RegExp = /Post (comment|reply)/): Promise<Response> {
  const [posted] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('_action=')),
    page.getByRole('button', { name: button }).click(),
  ]);
  await page.waitForLoadState();
  // POST → 303 → GET: the POST itself never renders a page (a reload would post again).
  expect(posted.status()).toBe(303);
  expect(posted.headers()['cache-control']).toBe('no-store');
  expect(posted.headers()['location']).toMatch(/[?&]posted=[\w-]{16}$/);
  const landing = await posted.request().redirectedTo()?.response();
  expect(landing, 'the GET the POST redirected to').toBeTruthy();
  expect(landing!.request().method()).toBe('GET');
  return landing!;
}

/** Posts a reply; its landing has `status` and is personal, so never stored by a shared cache. */
async function postReply(page: Page, status: number): Promise<void> {
  const landing = await submit(page, /Post reply/);
  expect(landing.status()).toBe(status);
  expect(landing.headers()['cache-control']).toBe('private, no-store');
}

/** Upstream `POST /posts/{slug}/comments` calls so far, from the mock's control server. */
async function commentWrites(request: APIRequestContext): Promise<number> {
  const stats = (await (await request.get(`${CONTROL}/stats`)).json()) as {
    publishing: { routes: Record<string, number> };
  };
  return stats.publishing.routes['POST /posts/{slug}/comments'] ?? 0;
}

/** A guest comment posted through the form; reload, Back and Forward afterwards post nothing. */
async function postOnceThenWander(page: Page, request: APIRequestContext): Promise<void> {
  const text = unique('Posted once');
  await page.goto(tenantUrl(TENANT, POST_PATH));
  const before = await commentWrites(request);
  const form = page.locator('#comment-form');
  await form.getByLabel('Comment', { exact: true }).fill(text);
  await form.getByLabel('Name', { exact: true }).fill('Olga Once');
  await form.getByLabel('E-mail', { exact: true }).fill('olga@example.com');
  const landing = await submit(page, /Post comment/);
  expect(landing.status()).toBe(200);
  expect(landing.headers()['cache-control']).toBe('private, no-store');
  await expect(page).toHaveURL(/[?&]posted=[\w-]{16}#comment-form$/);
  // The guest sees what they posted, waiting for a moderator: never "published".
  await expect(page.getByRole('status')).toContainText('Your comment is awaiting moderation');
  await expect(page.getByRole('status')).not.toContainText('published');
  await expect(page.locator('[data-posted-comment]')).toHaveText(text);
  expect(await commentWrites(request)).toBe(before + 1);

  // A reload repeats the GET only: the result was shown once, the page comes back without it.
  const reloaded = await page.reload();
  expect(reloaded?.request().method()).toBe('GET');
  await expect(page).toHaveURL(new RegExp(`${POST_PATH}#comment-form$`));
  await expect(page.locator('[data-posted-comment]')).toHaveCount(0);
  expect(await commentWrites(request)).toBe(before + 1);

  // Back reaches the page the form was on (a GET, no ERR_CACHE_MISS); Forward again.
  const back = await page.goBack();
  expect(back?.request().method() ?? 'GET').toBe('GET');
  await expect(page.locator('#comment-form')).toBeVisible();
  await page.goForward();
  await expect(page.locator('#comment-form')).toBeVisible();
  expect(await commentWrites(request)).toBe(before + 1);
}

test('threads render nested with authors, dates in the tenant’s zone, and reply links', async ({
  page,
  request,
  browser,
}) => {
  const response = await page.goto(tenantUrl(TENANT, POST_PATH));
  expect(response?.status()).toBe(200);
  // A plain GET stays public and session-free.
  expect(response?.headers()['cache-control']).toMatch(/^public/);
  expect(response?.headers()['set-cookie']).toBeUndefined();

  const section = page.getByRole('region', { name: /^Comments/ });
  await expect(
    section.getByRole('heading', { level: 2, name: /^Comments \(\d+\)$/ }),
  ).toBeVisible();

  // Grace O. → Tom Keller → Aisha Rahman, each a nested list labelled by the parent's author.
  const grace = commentBy(page, 'Grace O.').first();
  await expect(grace.getByRole('heading', { level: 3, name: 'Grace O.' })).toBeVisible();
  const graceReplies = repliesTo(grace, 'Grace O.');
  await expect(graceReplies.getByRole('heading', { level: 4, name: 'Tom Keller' })).toBeVisible();
  await expect(
    graceReplies
      .getByRole('list', { name: 'Replies to Tom Keller' })
      .getByRole('heading', { level: 5, name: 'Aisha Rahman' }),
  ).toBeVisible();

  // Date and time in en-US, America/New_York (daily-planet's settings).
  const time = grace.locator('time').first();
  const datetime = (await time.getAttribute('datetime')) ?? '';
  const expected = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'America/New_York',
  }).format(new Date(datetime));
  await expect(time).toHaveText(expected);

  const reply = grace.getByRole('link', { name: 'Reply to Grace O.' }).first();
  await expect(reply).toHaveAttribute('href', new RegExp(`\\?reply=\\d+#comment-form$`));

  // Pending guest comments of the seed are never listed.
  const editor = await apiLogin(request, 'editor');
  const queue = await request.get(`${API}/comments?status=pending&per_page=50`, {
    headers: { 'X-Tenant': TENANT, Authorization: `Bearer ${editor}` },
  });
  const pending = (
    (await queue.json()) as { data: { content: string; post: { slug: string } }[] }
  ).data
    .filter((c) => c.post.slug === SLUG)
    .map((c) => c.content);
  expect(pending.length).toBeGreaterThan(0);
  // Seed texts repeat: only check texts that no approved comment also has.
  const approvedTexts = new Set((await apiApproved(request)).map((c) => c.content));
  const onlyPending = pending.filter((content) => !approvedTexts.has(content));
  const shown = await page.getByRole('list', { name: 'Comments', exact: true }).innerText();
  for (const content of onlyPending) expect(shown).not.toContain(content);

  await auditCopy(page, browser);
});

test('a made-up ?reply= or ?comments-page= is sent to the post as shown, never a page of its own', async ({
  page,
  request,
}) => {
  const post = tenantUrl(TENANT, POST_PATH);
  await page.goto(post);
  const reply = page.locator('#comments').getByRole('link', { name: /^Reply to / });
  const listed = /[?&]reply=(\d+)/.exec((await reply.first().getAttribute('href')) ?? '')?.[1];
  expect(listed, 'a listed comment to answer').toBeTruthy();
  // Each would be one more copy of the post in every cache (route cache, edge): a redirect, not
  // stored. Through the path prefix: Node's resolver (unlike Chromium's) knows no *.localhost names.
  const prefixed = `http://127.0.0.1:${E2E_PORT}/${TENANT}${POST_PATH}`;
  for (const query of [
    'reply=abc',
    'reply=9999999999',
    'comments-page=0',
    'comments-page=abc',
    'comments-page=999999',
  ]) {
    const response = await request.get(`${prefixed}?${query}`, { maxRedirects: 0 });
    expect(response.status(), query).toBe(301);
    expect(response.headers()['cache-control'], query).toBe('no-store');
    expect(response.headers()['location'], query).toBe(`/${TENANT}${POST_PATH}`);
  }
  // A listed comment stays the one answered; the made-up page beside it goes.
  await page.goto(`${post}?comments-page=abc&reply=${listed}#comment-form`);
  await expect(page).toHaveURL(`${post}?reply=${listed}#comment-form`);
  await expect(page.locator('#comment-form')).toContainText('Replying to');
});

test('a comment is posted once: reload, Back and Forward send no second write', async ({
  page,
  request,
}) => {
  await postOnceThenWander(page, request);
});

test('without JavaScript, a comment typed before "Log in" is back in the field after logging in, and posts once', async ({
  page,
  request,
}) => {
  await page.goto(tenantUrl(TENANT, POST_PATH));
  const form = page.locator('#comment-form');
  const content = form.getByLabel('Comment', { exact: true });
  const text = unique('Typed before logging in without JavaScript');
  await content.fill(text);
  const before = await commentWrites(request);
  // The link of old, or the button that keeps the text: whichever the form offers.
  await form
    .locator('a, button')
    .filter({ hasText: /^Log in to comment at once/ })
    .click();
  await expect(page.getByRole('heading', { name: /^Log in to / })).toBeVisible();
  expect(await commentWrites(request)).toBe(before);
  // A mistyped password, and its result page reloaded: the way back to the text is not lost.
  await page.getByLabel('E-mail address').fill('reader@masthead.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toContainText('We could not log you in.');
  await page.reload();
  await page.getByLabel('E-mail address').fill('reader@masthead.test');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(new RegExp(`${POST_PATH}(\\?.*)?#comment-form$`));
  await expect(content).toHaveValue(text);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // A reload of the refilled form (no JavaScript keeps a draft in the tab) shows the text again.
  await page.reload();
  await expect(content).toHaveValue(text);
  await submit(page, /Post comment/);
  await expect(page.getByRole('status')).toContainText('Your comment has been published');
  expect(await commentWrites(request)).toBe(before + 1);
  await page.reload();
  await expect(content).toHaveValue('');
  // Back to the refilled form: posted, so it is not offered again.
  await page.goBack();
  await expect(content).toHaveValue('');
  expect(await commentWrites(request)).toBe(before + 1);
});

/** Logs `page` in as the demo reader, coming back to the post. */
async function logIn(page: Page): Promise<void> {
  await page.goto(tenantUrl(TENANT, `/login?next=${encodeURIComponent(POST_PATH)}`));
  await page.getByLabel('E-mail address').fill('reader@masthead.test');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(new RegExp(`${POST_PATH}$`));
}

/**
 * Two tabs of one browser: the post open while signed in, a logout in the other tab, then the
 * comment sent from the first (its page still shows the signed-in form). Nothing goes out as a
 * guest; the reader is told they were signed out, with the text kept.
 */
async function commentAfterLogoutElsewhere(page: Page, request: APIRequestContext) {
  await logIn(page);
  const form = page.locator('#comment-form');
  await expect(form.getByText('Commenting as')).toBeVisible();
  const other = await page.context().newPage();
  await other.goto(tenantUrl(TENANT, '/logout'));
  await other.locator('#main').getByRole('button', { name: 'Log out' }).click();
  await expect(other.getByText('You have logged out.')).toBeVisible();
  await other.close();

  const text = unique('Typed while logged out elsewhere');
  const before = await commentWrites(request);
  await form.getByLabel('Comment', { exact: true }).fill(text);
  const landing = await submit(page, /Post comment/);
  expect(landing.status()).toBe(401);
  await expect(page.getByRole('alert')).toContainText('You are no longer signed in');
  await expect(form.getByLabel('Comment', { exact: true })).toHaveValue(text);
  expect(await commentWrites(request)).toBe(before);
  // Now a guest form: name and e-mail post it as a guest, awaiting moderation.
  await form.getByLabel('Name', { exact: true }).fill('Riley As Guest');
  await form.getByLabel('E-mail', { exact: true }).fill('riley@example.com');
  await submit(page, /Post comment/);
  await expect(page.getByRole('status')).toContainText('Your comment is awaiting moderation');
  expect(await commentWrites(request)).toBe(before + 1);
}

test('logged out in another tab: a comment sent from the signed-in form is not posted as a guest, and says why', async ({
  page,
  request,
}) => {
  await commentAfterLogoutElsewhere(page, request);
});

test('a guest whose old session is gone (a booking weeks ago) is asked for a name, not told they were signed out', async ({
  page,
}) => {
  await page
    .context()
    .addCookies([
      { name: 'astro-session', value: crypto.randomUUID(), url: tenantUrl(TENANT, '/') },
    ]);
  await page.goto(tenantUrl(TENANT, POST_PATH));
  const form = page.locator('#comment-form');
  const text = unique('A guest with an old cookie');
  await form.getByLabel('Comment', { exact: true }).fill(text);
  const landing = await submit(page, /Post comment/);
  // Before: 401 "You are no longer signed in" to someone who never signed in.
  expect(landing.status()).toBe(422);
  await expect(page.getByRole('alert')).toContainText('Check the highlighted fields');
  await expect(form.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(
    /Enter your name, or sign in to comment/,
  );
  await expect(form.getByLabel('Comment', { exact: true })).toHaveValue(text);
});

test('a reader whose signed-in session is gone (idle too long) is told they are no longer signed in', async ({
  page,
  request,
}) => {
  await logIn(page);
  const form = page.locator('#comment-form');
  await expect(form.getByText('Commenting as')).toBeVisible();
  const session = (await page.context().cookies()).find((c) => c.name === 'astro-session');
  // As the store does with a session idle past SESSION_TTL_SECONDS.
  rmSync(`node_modules/.astro/sessions/${session!.value}`);

  const text = unique('Typed after the session ran out');
  const before = await commentWrites(request);
  await form.getByLabel('Comment', { exact: true }).fill(text);
  const landing = await submit(page, /Post comment/);
  expect(landing.status()).toBe(401);
  await expect(page.getByRole('alert')).toContainText('You are no longer signed in');
  await expect(form.getByLabel('Comment', { exact: true })).toHaveValue(text);
  expect(await commentWrites(request)).toBe(before);
});

test.describe('with JavaScript', () => {
  // The rest of this file runs without it: the forms must work as plain HTML.
  test.use({ javaScriptEnabled: true });

  test('a comment is posted once with JavaScript too: reload, Back and Forward send no write', async ({
    page,
    request,
  }) => {
    await postOnceThenWander(page, request);
  });

  test('logged out in another tab, with JavaScript too: told so, text kept, nothing posted as a guest', async ({
    page,
    request,
  }) => {
    await commentAfterLogoutElsewhere(page, request);
  });

  test('the comment field counts characters as the reader types, and says so after a pause', async ({
    page,
  }) => {
    await page.goto(tenantUrl(TENANT, POST_PATH));
    const content = page.locator('#comment-form').getByLabel('Comment', { exact: true });
    await expect(content).toHaveAccessibleDescription(/^Up to 2,000 characters/);
    await content.fill('Hello, 😀 world'); // 14 characters: the emoji is one
    await expect(content).toHaveAccessibleDescription('14 of 2,000 characters.');
    const live = page.locator('#comment-form [aria-live="polite"]');
    await expect(live).toHaveText('14 of 2,000 characters.');
    await content.fill('x'.repeat(2003));
    await expect(content).toHaveAccessibleDescription(
      '2,003 of 2,000 characters. 3 characters too many.',
    );
    await expect(page.locator('#comment-content-hint')).toHaveClass(/over/);
    await content.fill('x'.repeat(2000));
    await expect(page.locator('#comment-content-hint')).not.toHaveClass(/over/);
  });

  test('a comment typed before following "Log in" is in the field after logging in, and gone once posted', async ({
    page,
  }) => {
    await page.goto(tenantUrl(TENANT, POST_PATH));
    const content = page.locator('#comment-form').getByLabel('Comment', { exact: true });
    const text = unique('Typed before logging in');
    await content.fill(text);
    await page
      .locator('#comment-form')
      .getByRole('button', { name: 'Log in to comment at once, keeping your text' })
      .click();
    await page.getByLabel('E-mail address').fill('reader@masthead.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(new RegExp(`${POST_PATH}\\?posted=[\\w-]{16}#comment-form$`));
    await expect(content).toHaveValue(text);
    await expect(content).toHaveAccessibleDescription(/^\d+ of 2,000 characters\.$/);
    await page.locator('#comment-form').getByRole('button', { name: 'Post comment' }).click();
    await expect(page.getByRole('status')).toContainText('Your comment has been published');
    await page.goto(tenantUrl(TENANT, POST_PATH));
    await expect(content).toHaveValue('');
  });

  test('a draft comes back in the form it was typed in: a reply’s in that reply, a new comment’s in the new comment', async ({
    page,
  }) => {
    const post = tenantUrl(TENANT, POST_PATH);
    const form = page.locator('#comment-form');
    const content = form.getByLabel('Comment', { exact: true });
    const replyToTom = async () => {
      await page.goto(post);
      await commentBy(page, 'Tom Keller')
        .first()
        .getByRole('link', { name: 'Reply to Tom Keller' })
        .first()
        .click();
      await expect(form.getByRole('heading', { name: 'Reply to Tom Keller' })).toBeVisible();
    };
    const reply = unique('Reply draft');
    await replyToTom();
    await content.fill(reply);

    await page.goto(post);
    await expect(form.getByRole('heading', { name: 'Leave a comment' })).toBeVisible();
    await expect(content).toHaveValue('');
    const comment = unique('Comment draft');
    await content.fill(comment);

    await replyToTom();
    await expect(content).toHaveValue(reply);
    await page.goto(post);
    await expect(content).toHaveValue(comment);

    // Posting the reply ends its draft only: the new comment's form still has its own.
    await replyToTom();
    await form.getByLabel('Name', { exact: true }).fill('Dora Draft');
    await form.getByLabel('E-mail', { exact: true }).fill('dora@example.com');
    await postReply(page, 200);
    await expect(page.getByRole('status')).toContainText('Your comment is awaiting moderation');
    await expect(content).toHaveValue(comment);
    await replyToTom();
    await expect(content).toHaveValue('');
  });
});

test('a guest reply waits for moderation, is listed after an editor approves it, under its parent', async ({
  page,
  request,
  browser,
}) => {
  const text = unique('Guest reply');
  await page.goto(tenantUrl(TENANT, POST_PATH));
  await commentBy(page, 'Tom Keller')
    .first()
    .getByRole('link', { name: 'Reply to Tom Keller' })
    .first()
    .click();
  await expect(page).toHaveURL(/\?reply=\d+#comment-form$/);
  const form = page.locator('#comment-form');
  await expect(form.getByRole('heading', { name: 'Reply to Tom Keller' })).toBeVisible();
  await expect(form.getByText('Replying to Tom Keller', { exact: false })).toBeVisible();
  await expect(form.getByRole('link', { name: /Cancel reply/ })).toHaveAttribute(
    'href',
    `${POST_PATH}#comment-form`,
  );
  const parentId = new URL(page.url()).searchParams.get('reply');

  await form.getByLabel('Comment', { exact: true }).fill(text);
  await form.getByLabel('Name', { exact: true }).fill('Gina Guest');
  await form.getByLabel('E-mail', { exact: true }).fill('gina@example.com');
  await postReply(page, 200);
  await expect(page.getByRole('status')).toContainText('Your comment is awaiting moderation');
  // Its text is shown to them with the notice, not in the thread.
  await expect(page.locator('[data-posted-comment]')).toHaveText(text);
  await expect(page.getByRole('list', { name: 'Comments', exact: true })).not.toContainText(text);
  await expect(form.getByLabel('Comment', { exact: true })).toHaveValue('');
  await auditCopy(page, browser);

  // The public page never shows the notice (the POST result was not cached).
  await page.goto(tenantUrl(TENANT, POST_PATH));
  await expect(page.getByText('awaiting moderation')).toHaveCount(0);

  // An editor approves it through the API.
  const editor = await apiLogin(request, 'editor');
  const queued = await apiPendingId(request, editor, text);
  expect(queued?.parent_id).toBe(Number(parentId));
  const approved = await request.post(`${API}/comments/${queued?.id}/approve`, {
    headers: { 'X-Tenant': TENANT, Authorization: `Bearer ${editor}` },
  });
  expect(approved.status()).toBe(200);

  // The API lists it at once, nested under Tom Keller's comment. The site shows it after its caches
  // expire (comment list data cache 60 s, page route cache 300 s): the signed-in test below reads the
  // list fresh and checks the page too.
  const listed = (await apiApproved(request)).find((c) => c.content === text);
  expect(listed?.parent_id).toBe(Number(parentId));
});

test('a too-long comment and a missing e-mail keep everything typed and show the field messages', async ({
  page,
  browser,
}) => {
  await page.goto(tenantUrl(TENANT, POST_PATH));
  await commentBy(page, 'Grace O.')
    .first()
    .getByRole('link', { name: 'Reply to Grace O.' })
    .first()
    .click();
  const form = page.locator('#comment-form');
  const long = `${unique('Long')}\n\n${'word '.repeat(420)}`;
  await form.getByLabel('Comment', { exact: true }).fill(long);
  await form.getByLabel('Name', { exact: true }).fill('Gina Guest');
  await postReply(page, 422);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Check the highlighted fields');
  await expect(alert.getByRole('link', { name: /characters long/ })).toHaveAttribute(
    'href',
    '#comment-content',
  );
  await expect(alert.getByRole('link', { name: /e-mail address/ })).toHaveAttribute(
    'href',
    '#comment-email',
  );

  const content = form.getByLabel('Comment', { exact: true });
  await expect(content).toHaveValue(long);
  await expect(content).toHaveAttribute('aria-invalid', 'true');
  await expect(content).toHaveAccessibleDescription(
    new RegExp(
      `${[...long.trim()].length.toLocaleString('en-US')} of 2,000 characters\\. \\d+ characters too many\\..*Shorten it to 2,000`,
    ),
  );
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue('Gina Guest');
  await expect(form.getByLabel('E-mail', { exact: true })).toHaveAccessibleDescription(
    /Enter your e-mail address, or sign in to comment/,
  );
  // Still replying to the same comment.
  await expect(form.getByText('Replying to Grace O.')).toBeVisible();
  await auditCopy(page, browser);

  // Reloaded once the result is taken: still the reply to Grace O. (before: a new comment's form).
  await page.reload();
  await expect(page).toHaveURL(/\?reply=\d+#comment-form$/);
  await expect(form.getByRole('heading', { name: 'Reply to Grace O.' })).toBeVisible();
});

test('a signed-in comment is published at once, under its parent, from a fresh list', async ({
  page,
  request,
  browser,
}) => {
  const login = await page.goto(tenantUrl(TENANT, `/login?next=${encodeURIComponent(POST_PATH)}`));
  expect(login?.status()).toBe(200);
  await page.getByLabel('E-mail address').fill('reader@masthead.test');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForLoadState();

  // A guest comment approved a moment ago through the API: the fresh read after a signed-in comment shows it.
  const guestText = unique('Approved guest');
  const guest = await request.post(`${API}/posts/${SLUG}/comments`, {
    headers: { 'X-Tenant': TENANT },
    data: { content: guestText, author_name: 'Pat Guest', author_email: 'pat@example.com' },
  });
  expect(guest.status()).toBe(201);
  const guestId = ((await guest.json()) as { data: { id: number } }).data.id;
  const editor = await apiLogin(request, 'editor');
  await request.post(`${API}/comments/${guestId}/approve`, {
    headers: { 'X-Tenant': TENANT, Authorization: `Bearer ${editor}` },
  });

  const text = unique('Reader reply');
  await page.goto(tenantUrl(TENANT, POST_PATH));
  await commentBy(page, 'Priya S.')
    .first()
    .getByRole('link', { name: 'Reply to Priya S.' })
    .first()
    .click();
  const form = page.locator('#comment-form');
  // Name and e-mail stay empty: the server uses the signed-in reader's token.
  await form.getByLabel('Comment', { exact: true }).fill(text);
  await postReply(page, 200);
  await expect(page.getByRole('status')).toContainText('Your comment has been published');

  const mine = commentBy(page, 'Riley Reader', text);
  await expect(mine).toHaveCount(1);
  await expect(repliesTo(commentBy(page, 'Priya S.').first(), 'Priya S.')).toContainText(text);
  await expect(page.getByRole('link', { name: 'Go to your comment' })).toHaveAttribute(
    'href',
    /^#comment-\d+$/,
  );
  await expect(page.locator('#comments')).toContainText(guestText);
  await auditCopy(page, browser);

  // Reopening the post at its public address (the copy the route cache held before): the comment
  // is there at once, and the count with it.
  const heading = page.getByRole('heading', { level: 2, name: /^Comments/ });
  const counted = await heading.innerText();
  await page.goto(tenantUrl(TENANT, POST_PATH));
  await expect(commentBy(page, 'Riley Reader', text)).toHaveCount(1);
  await expect(heading).toHaveText(counted);
});
