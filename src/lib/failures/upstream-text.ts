import type { MessageKey } from '../i18n/dictionary.ts';
import { textKey } from '../i18n/text-key.ts';
import type { FieldErrors } from './fields.ts';

/**
 * Upstream validation sentences the site recognises (Laravel's English wording and the usual
 * variants), so a reader sees the interface's own message in their language instead. A sentence
 * no rule matches passes unchanged: it is better shown in English than hidden.
 */

type UpstreamRule = 'required' | 'email' | 'tooShort' | 'tooLong' | 'taken' | 'credentials';

const RULES: readonly [UpstreamRule, RegExp][] = [
  [
    'credentials',
    /credentials|do(es)? not match our records|invalid (e-?mail|login|password)|incorrect (e-?mail|password)|wrong (e-?mail|password)/i,
  ],
  ['taken', /already (been )?(taken|registered|in use|exists)|is taken|already have an account/i],
  [
    'required',
    /\b(is|field is) required\b|must be (present|provided)|cannot be (blank|empty)|can't be blank/i,
  ],
  ['email', /valid e-?mail|e-?mail (address )?(format )?is invalid/i],
  ['tooShort', /at least (\d+) char|minimum (of )?(\d+) char|too short/i],
  [
    'tooLong',
    /(not be greater than|at most|maximum (of )?|not exceed|no more than) ?(\d+) char|too long/i,
  ],
];

/** The rule an upstream field message states, with its `min` or `max` when it gives one; or null. */
export function recogniseUpstream(
  message: string,
): { rule: UpstreamRule; values: Readonly<Record<string, number>> } | null {
  const rule = RULES.find(([, pattern]) => pattern.test(message))?.[0];
  if (!rule) return null;
  const number = /(\d+)/.exec(message)?.[1];
  const name = rule === 'tooShort' ? 'min' : rule === 'tooLong' ? 'max' : undefined;
  return { rule, values: name && number !== undefined ? { [name]: Number(number) } : {} };
}

/** For each field a form has, the message key of each rule it can say in the reader's language. */
export type FieldKeys = Readonly<Record<string, Partial<Record<UpstreamRule, MessageKey>>>>;

/**
 * `errors` with every recognised message of a known field replaced by its text key (the values the
 * upstream gave, such as the minimum length, kept); `translated` says whether anything changed, so
 * the caller logs the original once.
 */
export function localizeUpstreamFields(
  errors: FieldErrors,
  keys: FieldKeys,
): { fields: FieldErrors; translated: boolean } {
  const fields: FieldErrors = {};
  let translated = false;
  for (const [field, messages] of Object.entries(errors)) {
    fields[field] = messages.map((message) => {
      const recognised = recogniseUpstream(message);
      const key = recognised && keys[field]?.[recognised.rule];
      if (!recognised || !key) return message;
      const given = Object.keys(recognised.values).length > 0;
      // A length rule whose number the sentence did not give keeps the sentence.
      if (!given && (recognised.rule === 'tooShort' || recognised.rule === 'tooLong'))
        return message;
      translated = true;
      return given ? textKey(key, recognised.values) : textKey(key);
    });
  }
  return { fields, translated };
}
