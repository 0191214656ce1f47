import { defineAction } from 'astro:actions';
import type { ActionAPIContext, ActionError } from 'astro:actions';
import { isWrongCredentials, signIn, signUp, revoke } from '../lib/auth/account.ts';
import { TooManyAttemptsError, attemptLimiter, withinAttempts } from '../lib/auth/attempts.ts';
import { classify } from '../lib/failures/classify.ts';
import { addressKey } from '../lib/request/visitor-limits.ts';
import { MESSAGES, authFailure, toActionError, tooManyAttempts } from '../lib/auth/failures.ts';
import { ACCOUNT_FORMS, fieldNames, loginInput, registerInput } from '../lib/auth/forms.ts';
import type { AccountFormName } from '../lib/auth/forms.ts';
import { safeNext } from '../lib/auth/next.ts';
import { signOut, startSession } from '../lib/auth/session.ts';
import type { SignedIn } from '../lib/auth/session.ts';
import { logError, logWarn, requestContext } from '../lib/log/log.ts';
import { publishingFor } from '../lib/services/clients.ts';
import { tenantOrigin } from '../lib/tenants/origin.ts';

/**
 * Subscriber accounts. Every action is also a public endpoint (`/_actions/<name>`), so limits and
 * checks live here, not in the pages. Results never carry the token: it stays in the session.
 */

/** The error `form` shows; anything unexpected is logged and shown as a generic message. */
function formError(ctx: ActionAPIContext, form: AccountFormName, error: unknown): ActionError {
  if (error instanceof TooManyAttemptsError) {
    return toActionError(tooManyAttempts(error.retryAfterSeconds));
  }
  const { summary, keys } = ACCOUNT_FORMS[form];
  const failure = authFailure(error, fieldNames(form), summary, keys);
  const event = `auth.${form}`;
  // The reader sees the site's own words; the log keeps what the upstream said.
  if (failure?.upstream)
    logWarn(`${event}.refused`, { ...requestContext(ctx), upstream: failure.upstream });
  if (failure) return toActionError(failure);
  logError(event, requestContext(ctx), error);
  return toActionError({ code: 'INTERNAL_SERVER_ERROR', message: MESSAGES.unexpected, fields: {} });
}

/**
 * A new session id on sign-in, so an id planted before it is worth nothing after; the token of a
 * sign-in it replaces is revoked upstream in the background (the reader never waits for it).
 */
function signInSession(ctx: ActionAPIContext, signedIn: SignedIn): Promise<void> {
  const { tenant, tenantMatch } = ctx.locals;
  const origin = tenantOrigin(tenantMatch);
  return startSession(ctx.session, ctx.cookies, tenant, signedIn, origin, (previous) => {
    void revoke(publishingFor(tenant), previous).then((revoked) => {
      if (!revoked) logWarn('auth.login.revoke_replaced_failed', requestContext(ctx));
    });
  });
}

export const accountActions = {
  login: defineAction({
    accept: 'form',
    input: loginInput,
    handler: async (input, ctx) => {
      const limiter = await attemptLimiter('login');
      try {
        // Only wrong credentials count: a slow upstream must not lock readers out.
        const signedIn = await withinAttempts(
          limiter,
          addressKey(ctx.locals.visitor.address),
          () => signIn(publishingFor(ctx.locals.tenant), input.email, input.password),
          isWrongCredentials,
        );
        await signInSession(ctx, signedIn);
        return { next: safeNext(ctx.url.searchParams.get('next')) };
      } catch (error) {
        throw formError(ctx, 'login', error);
      }
    },
  }),

  register: defineAction({
    accept: 'form',
    input: registerInput,
    handler: async (input, ctx) => {
      try {
        const visitor = addressKey(ctx.locals.visitor.address);
        // Signing in to an account the e-mail already has is a login attempt like any other.
        const loginLimiter = await attemptLimiter('login');
        // An account made or refused counts (probing e-mail addresses too); an outage does not.
        const signedIn = await withinAttempts(
          await attemptLimiter('register'),
          visitor,
          () =>
            signUp(
              publishingFor(ctx.locals.tenant),
              { name: input.name, email: input.email, password: input.password },
              (attempt) => withinAttempts(loginLimiter, visitor, attempt, isWrongCredentials),
            ),
          (error) => classify(error).kind === 'invalid',
          { successCounts: true },
        );
        await signInSession(ctx, signedIn);
        return { next: safeNext(ctx.url.searchParams.get('next')) };
      } catch (error) {
        throw formError(ctx, 'register', error);
      }
    },
  }),

  logout: defineAction({
    accept: 'form',
    handler: async (_input, ctx) => {
      const tenant = ctx.locals.tenant;
      // The session is cleared first and whatever the API answers: logging out always works here.
      const signedIn = await signOut(ctx.session, tenant);
      if (signedIn && !(await revoke(publishingFor(tenant), signedIn))) {
        logWarn('auth.logout.revoke_failed', requestContext(ctx));
      }
      return { signedOut: true };
    },
  }),
};
