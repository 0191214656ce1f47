import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  isWrongCredentials,
  loadAccount,
  revoke,
  signIn,
  signUp,
  toSignedIn,
} from '../../../src/lib/auth/account.ts';
import { MESSAGES, authFailure } from '../../../src/lib/auth/failures.ts';
import {
  ACCOUNT_FORMS,
  fieldNames,
  loginInput,
  registerInput,
} from '../../../src/lib/auth/forms.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { localizeFields } from '../../../src/lib/i18n/text.ts';
import { publishingClient } from '../../../src/lib/publishing/client.ts';
import type { PublishingClient } from '../../../src/lib/publishing/client.ts';
import { ValidationError, isOutage } from '../../../src/lib/upstream/errors.ts';
import { PASSWORD, ctl, freshUpstream, startTestMock } from '../harness.ts';
import type { Mock } from '../harness.ts';

// The account service against the contract mock, started in-process on free ports (its own data).
let mock: Mock;

beforeAll(async () => {
  mock = await startTestMock({ publicPerMinute: 0, tokenPerMinute: 0 });
});
afterAll(() => mock.close());
afterEach(() => ctl.clearFaults(mock));

function client(tenantId = 'daily-planet'): PublishingClient {
  return publishingClient({
    tenantId,
    baseUrl: mock.publishingUrl,
    upstream: freshUpstream({ http: { maxRetries: 0, timeoutMs: 1000 } }).up,
  });
}

const unique = () => `reader-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe('signIn', () => {
  it.each([
    ['subscriber@masthead.test', true],
    ['reader@masthead.test', false],
  ])('%s: roles and subscription come from /auth/me', async (email, paid) => {
    const signedIn = await signIn(client(), email, PASSWORD);
    expect(signedIn.token).toMatch(/.+/);
    expect(signedIn.user).toMatchObject({ email, hasActiveSubscription: paid });
    expect(signedIn.user.roles).toContain('subscriber');
  });

  it('wrong credentials → a message on the e-mail field', async () => {
    const error = await signIn(client(), 'reader@masthead.test', 'wrong-password').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(isWrongCredentials(error)).toBe(true);
    expect(authFailure(error, ['email', 'password'])?.fields).toEqual({
      email: ['These credentials do not match our records.'],
    });
  });

  it("the German tenant's refused sign-in is in German; the log keeps the upstream's words", async () => {
    const error = await signIn(client('alpine-post'), 'reader@masthead.test', 'wrong').catch(
      (e: unknown) => e,
    );
    const failure = authFailure(
      error,
      fieldNames('login'),
      MESSAGES.loginRefused,
      ACCOUNT_FORMS.login.keys,
    );
    const german = localizeFields(createI18n('de-CH', 'Europe/Zurich'), failure?.fields ?? {});
    expect(german).toEqual({ email: ['E-Mail-Adresse oder Passwort stimmen nicht.'] });
    expect(JSON.stringify(german)).not.toContain('credentials');
    expect(failure?.upstream?.fields).toEqual({
      email: ['These credentials do not match our records.'],
    });
  });

  it('a 401 to the sign-in (the alt dialect) is a refused sign-in too, in French', async () => {
    await ctl.dialect(mock, 'alt');
    try {
      const error = await signIn(client(), 'reader@masthead.test', 'wrong').catch(
        (e: unknown) => e,
      );
      expect(isWrongCredentials(error)).toBe(true);
      const failure = authFailure(
        error,
        fieldNames('login'),
        MESSAGES.loginRefused,
        ACCOUNT_FORMS.login.keys,
      );
      expect(localizeFields(createI18n('fr-CH', 'Europe/Zurich'), failure?.fields ?? {})).toEqual({
        email: ['L’adresse e-mail ou le mot de passe n’est pas correct.'],
      });
      expect(failure?.upstream?.message).toBe('Invalid credentials.');
    } finally {
      await ctl.dialect(mock, 'default');
    }
  });

  it.each([
    ['subscriber@masthead.test', true],
    ['reader@masthead.test', false],
  ])('%s on the alt dialect (subscription as an object or null): paid %s', async (email, paid) => {
    await ctl.dialect(mock, 'alt');
    try {
      const signedIn = await signIn(client(), email, PASSWORD);
      expect(signedIn.user.hasActiveSubscription).toBe(paid);
    } finally {
      await ctl.dialect(mock, 'default');
    }
  });

  it('the API down → "try again"', async () => {
    await ctl.faults(mock, { service: 'publishing', down: true });
    const error = await signIn(client(), 'reader@masthead.test', PASSWORD).catch((e: unknown) => e);
    expect(isOutage(error)).toBe(true);
    // An outage must not count toward locking the reader out.
    expect(isWrongCredentials(error)).toBe(false);
    expect(authFailure(error, ['email'])?.message).toBe(MESSAGES.unavailable);
  });
});

describe('signUp', () => {
  it('registers a free subscriber and signs them in; the same e-mail again is taken', async () => {
    const email = unique();
    const signedIn = await signUp(client(), { name: 'New Reader', email, password: 'long enough' });
    expect(signedIn.user).toMatchObject({
      name: 'New Reader',
      email,
      hasActiveSubscription: false,
    });

    // Someone else (another password) asking for the same e-mail.
    const again = await signUp(client(), {
      name: 'Again',
      email,
      password: 'another password',
    }).catch((e: unknown) => e);
    expect(authFailure(again, ['name', 'email', 'password'])?.fields).toEqual({
      email: ['The email has already been taken.'],
    });
    // With the form's keys, the reader's language: "e-mail taken" in German.
    const keyed = authFailure(
      again,
      fieldNames('register'),
      undefined,
      ACCOUNT_FORMS.register.keys,
    );
    expect(localizeFields(createI18n('de-CH', 'UTC'), keyed?.fields ?? {})).toEqual({
      email: ['Mit dieser E-Mail-Adresse gibt es schon ein Konto. Möchten Sie sich anmelden?'],
    });
  });

  it('registers and signs in with an address in letters of another script (josé@…, …@bücher.de)', async () => {
    const email = unique().replace('reader-', 'josé-').replace('example.com', 'bücher.de');
    const form = registerInput.parse({
      name: 'José',
      email,
      password: 'long enough',
      password_confirmation: 'long enough',
    });
    await signUp(client(), form);
    const signedIn = await signIn(
      client(),
      loginInput.parse({ email, password: 'x' }).email,
      'long enough',
    );
    expect(signedIn.user.email).toBe(email);
  });

  it('the same registration sent twice (double click, retry): the second signs in to the account the first made', async () => {
    const email = unique();
    const input = { name: 'Twice', email, password: 'long enough' };
    const [first, second] = await Promise.allSettled([
      signUp(client(), input),
      signUp(client(), input),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('fulfilled');
    if (first.status !== 'fulfilled' || second.status !== 'fulfilled') return;
    expect(second.value.user.id).toBe(first.value.user.id);
    expect(second.value.token).not.toBe(first.value.token);

    // The sign-in goes through the caller's guard (the action's login attempts).
    const guarded: string[] = [];
    const third = await signUp(client(), input, (attempt) => {
      guarded.push(email);
      return attempt();
    });
    expect(guarded).toEqual([email]);
    expect(third.user).toMatchObject({ id: first.value.user.id, name: 'Twice', email });
  });

  it('an account belongs to one tenant', async () => {
    const email = unique();
    await signUp(client('daily-planet'), { name: 'Tenant A', email, password: 'long enough' });
    await expect(signIn(client('harbour-times'), email, 'long enough')).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});

describe('revoke and loadAccount', () => {
  it('reads the current account, and reports a revoked token as expired', async () => {
    const c = client();
    const signedIn = await signIn(c, 'subscriber@masthead.test', PASSWORD);
    expect(await loadAccount(c, signedIn)).toEqual({ kind: 'current', signedIn });

    expect(await revoke(c, signedIn)).toBe(true);
    // A second logout finds the token already revoked: still done.
    expect(await revoke(c, signedIn)).toBe(true);
    expect(await loadAccount(client(), signedIn)).toEqual({ kind: 'expired' });
  });

  it('keeps the saved account when the API is down, and says revoking failed', async () => {
    const c = client();
    const signedIn = await signIn(c, 'reader@masthead.test', PASSWORD);
    await ctl.faults(mock, { service: 'publishing', down: true });
    expect(await loadAccount(client(), signedIn)).toEqual({ kind: 'saved', signedIn });
    expect(await revoke(client(), signedIn)).toBe(false);
  });
});

describe('loadAccount after the account changes upstream', () => {
  const account = (email: string) => {
    const user = mock.state.publishing.sites
      .get('daily-planet')
      ?.users.find((u) => u.email === email);
    if (!user) throw new Error(`no mock user ${email}`);
    return user;
  };

  it('a subscription bought since signing in shows at once, not a kept "free"', async () => {
    const c = client();
    const signedIn = await signIn(c, 'reader@masthead.test', PASSWORD);
    expect(signedIn.user.hasActiveSubscription).toBe(false);
    // Subscribed on the plan's subscribe_url, back on /account a few seconds later.
    account('reader@masthead.test').hasActiveSubscription = true;
    try {
      const state = await loadAccount(c, signedIn);
      expect(state.kind).toBe('current');
      if (state.kind === 'current') expect(state.signedIn.user.hasActiveSubscription).toBe(true);
    } finally {
      account('reader@masthead.test').hasActiveSubscription = false;
    }
  });
});

describe('toSignedIn', () => {
  it('maps the API user to the session shape', () => {
    expect(
      toSignedIn('t', { id: 7, name: 'N', roles: ['editor'], has_active_subscription: true }),
    ).toEqual({
      token: 't',
      user: { id: 7, name: 'N', roles: ['editor'], hasActiveSubscription: true },
    });
  });
});
