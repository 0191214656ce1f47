import { isRecord } from '../content/records.ts';
import { fieldErrorsOf, issuesFrom } from '../failures/fields.ts';
import type { FieldErrors } from '../failures/fields.ts';
import type { I18n } from '../i18n/index.ts';
import { localize, localizeFields } from '../i18n/text.ts';
import { MESSAGES, OWN_MESSAGE_CODES } from './failures.ts';

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
