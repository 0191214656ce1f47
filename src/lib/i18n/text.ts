import type { FieldErrors } from '../failures/fields.ts';
import type { I18n } from './index.ts';
import { MESSAGE_KEYS } from './dictionary.ts';
import { writeText } from './text-key.ts';

export { textKey, readTextKey } from './text-key.ts';

const KNOWN = new Set<string>(MESSAGE_KEYS);

/** A text key (see `./text-key.ts`) in the reader's language; any other string unchanged. */
export function localize(i18n: I18n, text: string): string {
  return writeText(text, i18n.locale, (key, values) =>
    KNOWN.has(key) ? i18n.t(key, values) : text,
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
