import type { TextValues } from './text-key.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Message, MessageKey } from './dictionary.ts';
import { numberFormat, pluralRules } from './intl-cache.ts';
import { dictionaryFor } from './languages.ts';
import { en } from './messages/en.ts';
import { memo } from '../memo.ts';
import { fill } from './say.ts';

export type { MessageKey } from './dictionary.ts';

type I18nTenant = Pick<Tenant, 'locale' | 'timeZone' | 'messages'>;

/** The tenant's `I18n`, built once per tenant object (a reloaded tenant gets its own). */
export const i18nFor: (tenant: I18nTenant) => I18n = memo((tenant: I18nTenant) =>
  createI18n(tenant.locale, tenant.timeZone, tenant.messages),
);

/**
 * Interface text and formats in one language, locale (`de-CH`) and time zone: `language` is the
 * dictionary's (`de`; `en` when the locale's language has none), `t` fills `{name}` from `values`
 * (plurals by `values.count`), `message` is the raw text for an island that formats it itself.
 * Override → the language's dictionary → English: a missing key never shows as a key.
 */
export function createI18n(
  locale: string,
  timeZone: string,
  overrides: { readonly [K in MessageKey]?: Message | undefined } = {},
) {
  const { language, messages } = dictionaryFor(locale);
  const plurals = pluralRules(locale);
  const numbers = numberFormat(locale);
  const number = (value: number) => numbers.format(value);
  const message = (key: MessageKey): Message => overrides[key] ?? messages[key] ?? en[key];
  const t = (key: MessageKey, values: TextValues = {}) =>
    fill(message(key), values, plurals, numbers);
  return { locale, language, timeZone, t, number, message };
}

export type I18n = ReturnType<typeof createI18n>;
