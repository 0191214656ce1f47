import type { TextValues } from './text-key.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Message, MessageKey } from './dictionary.ts';
import { numberFormat, pluralRules } from './intl-cache.ts';
import { dictionaryFor } from './languages.ts';
import { en } from './messages/en.ts';
import { memo } from '../memo.ts';
import { fill } from './say.ts';

export type { Message, MessageKey } from './dictionary.ts';

/** Interface text and formats in one tenant's language, locale and time zone. */
export interface I18n {
  /** BCP 47 locale of the tenant (`de-CH`). */
  locale: string;
  /** Language of the dictionary in use (`de`); `en` when the locale's language has none. */
  language: string;
  timeZone: string;
  /** The text for `key`, `{name}` filled from `values`; plural messages pick their form by `values.count`. */
  t: (key: MessageKey, values?: TextValues) => string;
  number: (value: number) => string;
  /** The raw message (override, language, English), for text a client-side island formats itself. */
  message: (key: MessageKey) => Message;
}

type I18nTenant = Pick<Tenant, 'locale' | 'timeZone' | 'messages'>;

/** The tenant's `I18n`; built once per tenant (tenants are read once at start-up). */
export const i18nFor: (tenant: I18nTenant) => I18n = memo((tenant: I18nTenant) =>
  createI18n(tenant.locale, tenant.timeZone, tenant.messages),
);

/** Override → the language's dictionary → English: a missing key never shows as a key. */
export function createI18n(
  locale: string,
  timeZone: string,
  overrides: { readonly [K in MessageKey]?: Message | undefined } = {},
): I18n {
  const { language, messages } = dictionaryFor(locale);
  const plurals = pluralRules(locale);
  const numbers = numberFormat(locale);
  const number = (value: number) => numbers.format(value);
  const message = (key: MessageKey): Message => overrides[key] ?? messages[key] ?? en[key];
  const t = (key: MessageKey, values: TextValues = {}) =>
    fill(message(key), values, plurals, numbers);
  return { locale, language, timeZone, t, number, message };
}
