import { ActionError } from 'astro:actions';
import { isRecord } from '../content/records.ts';
import { temporaryMessage } from '../delivery/policy.ts';
import { classify, isSignedOut } from '../failures/classify.ts';
import { fieldErrorsOf, issuesFrom } from '../failures/fields.ts';
import type { FieldErrors } from '../failures/fields.ts';
import { localizeUpstreamFields, recogniseUpstream } from '../failures/upstream-text.ts';
import type { FieldKeys } from '../failures/upstream-text.ts';
import type { I18n } from '../i18n/index.ts';
import { localize, localizeFields } from '../i18n/text.ts';
import { textKey } from '../i18n/text-key.ts';
import { UpstreamError } from '../upstream/errors.ts';

// A failed sign-in or registration both ways: thrown error → `FormFailure` → ActionError in the
// action (`authFailure`, `toActionError`); that error → messages in the reader's words on the page.

/** The ActionError codes whose message a sign-in form's failure says in this site's words. */
const OWN_MESSAGE_CODES = [
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

interface FieldIssue {
  code: 'custom';
  path: string[];
  message: string;
}

/**
 * The API's own field messages (422: "The email has already been taken.") as an Actions input
 * error, so pages read them exactly like local validation: `isInputError(error)` and
 * `error.fields`. Astro does not export `ActionInputError`; it recognises input errors by `type`
 * and rebuilds them from `issues` when it serialises the result (see `ActionError.fromJson`).
 * Messages for no particular field travel as issues with an empty path (summary only).
 */
class UpstreamFieldsError extends ActionError {
  override type = 'AstroActionInputError';
  readonly issues: FieldIssue[];
  readonly fields: FieldErrors;

  constructor(failure: FormFailure) {
    super({ code: 'BAD_REQUEST', message: failure.message });
    this.fields = failure.fields;
    this.issues = [
      ...Object.entries(failure.fields).flatMap(([field, messages]) =>
        messages.map((message): FieldIssue => ({ code: 'custom', path: [field], message })),
      ),
      { code: 'custom', path: [], message: failure.message },
    ];
  }
}

/** The ActionError a form shows for `failure`: field messages when it has any, else code + message. */
export function toActionError(failure: FormFailure): ActionError {
  if (Object.keys(failure.fields).length > 0) return new UpstreamFieldsError(failure);
  return new ActionError({ code: failure.code, message: failure.message });
}

/** What a sign-in form renders after a submit. */
export interface FormState {
  /** Summary message; null when the last submit did not fail. */
  message: string | null;
  fields: FieldErrors;
  /** What the visitor typed, to put back into the inputs (never a password). */
  values: Record<string, string>;
}

export const EMPTY_FORM: FormState = { message: null, fields: {}, values: {} };

// Any other code's text may come from Astro or an unexpected error: a generic message instead.
const OWN_CODES: ReadonlySet<unknown> = new Set(OWN_MESSAGE_CODES);

function asFields(value: unknown): FieldErrors {
  const out: FieldErrors = {};
  for (const [name, messages] of Object.entries(isRecord(value) ? value : {})) {
    if (Array.isArray(messages)) {
      const clean = messages.filter((m): m is string => typeof m === 'string' && m.length > 0);
      if (clean.length > 0) out[name] = clean;
    }
  }
  return out;
}

/** Summary and field messages of an action's error (`Astro.getActionResult(…)?.error`), in the reader's language. */
export function describeError(error: unknown, i18n: I18n): Pick<FormState, 'message' | 'fields'> {
  if (!isRecord(error)) return { message: null, fields: {} };
  const fields = localizeFields(i18n, asFields(error['fields']));
  if (error['type'] === 'AstroActionInputError') {
    // Issues without a field carry an upstream rule about the whole form.
    const summary = fieldErrorsOf(issuesFrom(error['issues']))['form'] ?? [];
    const message = summary.map((m) => localize(i18n, m)).join(' ');
    return { message: message || localize(i18n, MESSAGES.fields), fields };
  }
  const { code, message } = error;
  const own = OWN_CODES.has(code);
  const text = own && typeof message === 'string' && message ? message : MESSAGES.unexpected;
  return { message: localize(i18n, text), fields };
}

/**
 * The submitted values of `names` (never a field whose name mentions a password), from what the
 * form's POST kept for its GET (src/lib/forms/after-post.ts).
 */
export function submittedValues(
  kept: Readonly<Record<string, string>> | undefined,
  names: readonly string[],
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) {
    if (name.includes('password')) continue;
    const value = kept?.[name];
    if (typeof value === 'string') values[name] = value.slice(0, 1000);
  }
  return values;
}

/** Everything a form needs after a failed submit; `EMPTY_FORM` when there was none. */
export function formState(
  kept: Readonly<Record<string, string>> | undefined,
  error: unknown,
  keep: readonly string[],
  i18n: I18n,
): FormState {
  if (!error) return EMPTY_FORM;
  return { ...describeError(error, i18n), values: submittedValues(kept, keep) };
}
