import type { FieldErrors } from '../failures/fields.ts';
import type { I18n } from './index.ts';
import { MESSAGE_KEYS, type MessageKey } from './dictionary.ts';
import { formatWait } from '../failures/wait.ts';
import { readTextKey } from './text-key.ts';

const KNOWN = new Set<string>(MESSAGE_KEYS);
const isMessageKey = (key: string): key is MessageKey => KNOWN.has(key);

/**
 * A text key (see `./text-key.ts`) in the reader's language, its `wait` spelled out; any other
 * string unchanged: the one reading of text keys.
 */
export function localize(i18n: I18n, text: string): string {
  const parsed = readTextKey(text);
  if (!parsed || !isMessageKey(parsed.key)) return text;
  const { wait, ...values } = parsed.values;
  const spelled =
    typeof wait === 'number' ? { ...values, wait: formatWait(wait, i18n.locale) } : values;
  return i18n.t(parsed.key, spelled);
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
