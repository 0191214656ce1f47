import type { FieldErrors } from '../failures/fields.ts';
import type { I18n } from './index.ts';
import { MESSAGE_KEYS } from './dictionary.ts';
import { readTextKey } from './text-key.ts';

export { textKey, readTextKey, type TextValues } from './text-key.ts';

const KNOWN = new Set<string>(MESSAGE_KEYS);

/** A text key (see `./text-key.ts`) in the reader's language; any other string unchanged. */
export function localize(i18n: I18n, text: string): string {
  const parsed = readTextKey(text);
  if (!parsed || !KNOWN.has(parsed.key)) return text;
  const { wait, ...values } = parsed.values;
  return i18n.t(
    parsed.key,
    typeof wait === 'number' ? { ...values, wait: i18n.duration(wait) } : values,
  );
}

/** Every message of a form's field errors in the reader's language. */
export function localizeFields(i18n: I18n, fields: FieldErrors): FieldErrors {
  return Object.fromEntries(
    Object.entries(fields).map(([name, messages]) => [
      name,
      messages.map((m) => localize(i18n, m)),
    ]),
  );
}
