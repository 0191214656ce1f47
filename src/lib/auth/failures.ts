import { temporaryMessage } from '../delivery/policy.ts';
import { classify, isSignedOut } from '../failures/classify.ts';
import type { FieldErrors } from '../failures/fields.ts';
import { localizeUpstreamFields, recogniseUpstream } from '../failures/upstream-text.ts';
import type { FieldKeys } from '../failures/upstream-text.ts';
import { textKey } from '../i18n/text-key.ts';
import { UpstreamError } from '../upstream/errors.ts';

/** The ActionError codes whose message a sign-in form's failure says in this site's words. */
export const OWN_MESSAGE_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'TOO_MANY_REQUESTS',
  'SERVICE_UNAVAILABLE',
] as const;
/** The ActionError codes a sign-in form can end with (a subset of Astro's). */
type FailureCode = (typeof OWN_MESSAGE_CODES)[number] | 'INTERNAL_SERVER_ERROR';

/** What a failed submit shows: a message for the summary and messages per form field (text keys or upstream text). */
export interface FormFailure {
  code: FailureCode;
  message: string;
  fields: FieldErrors;
  /** What the upstream said, when the form shows the site's own words instead (for the log). */
  upstream?: { message?: string | undefined; fields?: FieldErrors } | undefined;
}

export const MESSAGES = {
  fields: textKey('auth.fields'),
  unavailable: textKey('auth.unavailable'),
  unexpected: textKey('auth.unexpected'),
  rejected: textKey('auth.rejected'),
  loginRefused: textKey('auth.loginRefused'),
} as const;

export function tooManyAttempts(retryAfterSeconds: number): FormFailure {
  return {
    code: 'TOO_MANY_REQUESTS',
    message: textKey('auth.tooManyAttempts', { wait: retryAfterSeconds }),
    fields: {},
  };
}

/**
 * Splits the API's 422 `errors` into messages for fields the form has and the rest (shown in the
 * summary), so an upstream rule we do not check locally still reaches the reader.
 */
export function mapFieldErrors(
  errors: FieldErrors,
  formFields: readonly string[],
): { fields: FieldErrors; other: string[] } {
  const fields: FieldErrors = {};
  const other: string[] = [];
  for (const [name, messages] of Object.entries(errors)) {
    const clean = messages.map((m) => m.trim()).filter(Boolean);
    if (clean.length === 0) continue;
    if (formFields.includes(name)) fields[name] = clean;
    else other.push(...clean);
  }
  return { fields, other };
}

/**
 * The form failure for an error thrown while signing in or up, or null for an unexpected error
 * (a bug: the caller logs it and shows `MESSAGES.unexpected`, never the error's own text).
 */
export function authFailure(
  error: unknown,
  formFields: readonly string[],
  fieldsMessage: string = MESSAGES.fields,
  keys: FieldKeys = {},
): FormFailure | null {
  const failure = classify(error);
  const credentials = Object.entries(keys).find(([, k]) => k.credentials);
  const credentialsKey = credentials?.[1].credentials;
  if (failure.kind === 'invalid') {
    const { fields: known, other } = mapFieldErrors(failure.fields, formFields);
    const { fields, translated } = localizeUpstreamFields(known, keys);
    const hasFields = Object.keys(fields).length > 0;
    // A 422 about no field: its message, unless it says the credentials were wrong.
    const summary = failure.message?.trim();
    const refused =
      credentialsKey !== undefined && recogniseUpstream(summary ?? '')?.rule === 'credentials';
    const fallback = refused ? textKey(credentialsKey) : summary || MESSAGES.rejected;
    return {
      code: 'BAD_REQUEST',
      message: other.length > 0 ? other.join(' ') : hasFields ? fieldsMessage : fallback,
      fields,
      ...((translated || (refused && !hasFields && other.length === 0)) && {
        upstream: { message: failure.message, fields: failure.fields },
      }),
    };
  }
  // The API's 429 counts this server's calls (every reader together), not this visitor's attempts.
  const temporary = temporaryMessage(failure, 'auth');
  if (temporary) {
    const code = temporary.status === 429 ? 'TOO_MANY_REQUESTS' : 'SERVICE_UNAVAILABLE';
    return { code, message: temporary.message, fields: {} };
  }
  if (isSignedOut(failure)) {
    // A 401 to a call made without a token (signing in) means the credentials were refused.
    if (credentials && credentialsKey) {
      return {
        code: 'BAD_REQUEST',
        message: fieldsMessage,
        fields: { [credentials[0]]: [textKey(credentialsKey)] },
        upstream: { message: error instanceof UpstreamError ? error.upstreamMessage : undefined },
      };
    }
    return { code: 'UNAUTHORIZED', message: MESSAGES.rejected, fields: {} };
  }
  return null;
}
