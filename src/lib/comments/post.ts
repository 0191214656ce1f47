import { classify, isSignedOut } from '../failures/classify.ts';
import { NetworkError, NoRouteError, RateLimitedError, isOutage } from '../upstream/errors.ts';
import { RETRY_AFTER_SECONDS, temporaryMessage } from '../delivery/policy.ts';
import type { FieldErrors } from '../failures/fields.ts';
import { textKey } from '../i18n/text-key.ts';
import type { PublishingClient } from '../publishing/client.ts';
import { mapValidationErrors, validateComment } from './form.ts';
import type { CommentFormValues } from './form.ts';
import type { ConsumeLimit } from './limit.ts';

export const MODERATION_MESSAGE = textKey('comments.awaiting');
export const PUBLISHED_MESSAGE = textKey('comments.published');

/** `unconfirmed`: the answer was lost or broken after the post was sent (it may have been stored). */
export type FailureKind =
  'invalid' | 'busy' | 'unavailable' | 'unconfirmed' | 'signed-out' | 'closed' | 'error';

/** What the action hands back to the page: everything it needs to render, nothing secret. */
export type CommentOutcome =
  | {
      ok: true;
      /** `approved`: listed now (signed in); `pending`: waits for a moderator (guest). */
      status: 'approved' | 'pending';
      id: string;
      message: string;
      /** What was posted, as sent: a guest sees it with "awaiting moderation" until approved. */
      content: string;
    }
  | {
      ok: false;
      kind: FailureKind;
      /** One sentence for the top of the form (a text key, or the API's own message). */
      message: string;
      fields: FieldErrors;
      /** What was typed, to refill the form. */
      values: CommentFormValues;
      retryAfterSeconds?: number;
    };

/** Connection codes that mean the request never reached the API. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function neverConnected(error: NetworkError): boolean {
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth += 1) {
    if ('code' in cause && typeof cause.code === 'string' && NOT_SENT_CODES.has(cause.code))
      return true;
    cause = cause.cause;
  }
  return false;
}

/**
 * A create whose answer was lost or broken (a 5xx, no answer in time, an unreadable body, a dropped
 * connection): the API may have stored the comment, so "not posted, try again" could post it twice.
 */
function mayHavePosted(error: unknown): boolean {
  if (!isOutage(error) || error instanceof RateLimitedError || error instanceof NoRouteError)
    return false;
  return !(error instanceof NetworkError && neverConnected(error));
}

/** HTTP status of the result page for a failed submission. */
export const FAILURE_STATUS: Readonly<Record<FailureKind, number>> = {
  invalid: 422,
  busy: 429,
  unavailable: 503,
  unconfirmed: 503,
  'signed-out': 401,
  closed: 404,
  error: 500,
};

export interface PostCommentRequest {
  postSlug: string;
  values: CommentFormValues;
  /** The signed-in subscriber's token, or null for a guest. */
  token: string | null;
  /** A guest who logged out since (in another tab, say): a form without name or e-mail was theirs signed in. */
  signedOutSince?: boolean;
  /** Rate-limit key (tenant and client address). */
  limitKey: string;
  /** The name this post is remembered under (its idempotency key: ./once.ts), if it has one. */
  remember?: string | null;
}

/**
 * Runs a post once per remembered name (./once.ts); `refused.busy` when the same key is still being
 * posted, `refused.unavailable` when the store of posted keys does not answer (nothing was sent).
 */
export type PostOnce = (
  name: string,
  post: () => Promise<CommentOutcome>,
  refused: { busy: () => CommentOutcome; unavailable: () => CommentOutcome },
) => Promise<CommentOutcome>;

export interface PostCommentDeps {
  /** The tenant's publishing client acting for `token` (anonymous when undefined). */
  client: (token: string | undefined) => PublishingClient;
  consume: ConsumeLimit;
  /** Called with unexpected failures (never shown to the visitor). */
  onUnexpected?: (error: unknown) => void;
  /** Posts once per idempotency key (./once.ts); without it every call posts. */
  once?: PostOnce;
}

/**
 * Validates, rate-limits and posts one comment. Every failure comes back as a typed outcome with
 * the visitor's text, never as a thrown error: with JavaScript off the page re-renders from it.
 */
export async function postComment(
  request: PostCommentRequest,
  deps: PostCommentDeps,
): Promise<CommentOutcome> {
  const { values } = request;
  const signedIn = request.token !== null;
  const fail = (
    kind: FailureKind,
    message: string,
    fields: FieldErrors = {},
    extra: { retryAfterSeconds?: number; values?: CommentFormValues } = {},
  ): CommentOutcome => ({
    ok: false,
    kind,
    message,
    fields,
    values: extra.values ?? values,
    ...(extra.retryAfterSeconds !== undefined && { retryAfterSeconds: extra.retryAfterSeconds }),
  });

  // Not sent as a guest's, nor refused for want of a name: the reader is told they were signed out.
  if (request.signedOutSince && !values.name.trim() && !values.email.trim())
    return fail('signed-out', textKey('comments.error.signedOut'));
  const checked = validateComment(values, signedIn);
  if (!checked.ok) return fail('invalid', textKey('comments.error.fields'), checked.fields);

  const { input } = checked;
  // Spends a rate-limit point and creates the comment; the point comes back unless the API stored
  // the comment or may have (a 422, a 429 or a connection that never reached it costs nothing, so
  // a reader who fixes a typo is not locked out). Spent first, so a burst at once is still held.
  const send = async (): Promise<CommentOutcome> => {
    const limited = await deps.consume(request.limitKey);
    if (!limited.ok) {
      return fail(
        'busy',
        textKey('comments.error.tooMany', { wait: limited.retryAfterSeconds }),
        {},
        { retryAfterSeconds: limited.retryAfterSeconds },
      );
    }
    const outcome = await create();
    if (!outcome.ok && outcome.kind !== 'unconfirmed') {
      // Best effort: a limiter that cannot take the point back leaves it spent.
      await deps.consume.refund?.(request.limitKey).catch(() => undefined);
    }
    return outcome;
  };

  const create = async (): Promise<CommentOutcome> => {
    try {
      const created = await deps
        .client(request.token ?? undefined)
        .createComment(request.postSlug, input);
      const status = created.comment.status === 'approved' ? 'approved' : 'pending';
      return {
        ok: true,
        status,
        id: String(created.comment.id),
        message: status === 'approved' ? PUBLISHED_MESSAGE : MODERATION_MESSAGE,
        content: input.content,
      };
    } catch (error) {
      const failure = classify(error);
      if (failure.kind === 'invalid') {
        const mapped = mapValidationErrors(failure.fields);
        if (mapped.parentRejected) {
          return fail('invalid', textKey('comments.error.parentGone'), mapped.fields, {
            values: { ...values, parentId: '' },
          });
        }
        const summary = mapped.other[0] ?? textKey('comments.error.fields');
        return fail('invalid', summary, mapped.fields);
      }
      const temporary = temporaryMessage(failure, 'comments.error');
      if (temporary?.status === 429) return fail('busy', temporary.message, {}, temporary);
      if (temporary && mayHavePosted(error))
        return fail('unconfirmed', textKey('comments.error.unconfirmed'));
      if (temporary) return fail('unavailable', temporary.message);
      if (isSignedOut(failure) && signedIn)
        return fail('signed-out', textKey('comments.error.signedOut'));
      if (failure.kind === 'not-found') return fail('closed', textKey('comments.error.closed'));
      deps.onUnexpected?.(error);
      return fail('error', textKey('comments.error.unexpected'));
    }
  };

  if (!deps.once || !request.remember) return send();
  // A second post of the same key answers the first one's comment (no rate-limit point either).
  return deps.once(request.remember, send, {
    busy: () => fail('busy', textKey('comments.error.posting')),
    unavailable: () => {
      const wait = { retryAfterSeconds: RETRY_AFTER_SECONDS };
      return fail('unavailable', textKey('comments.error.unavailable'), {}, wait);
    },
  });
}
