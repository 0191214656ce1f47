import { MESSAGE_KEYS, type Message } from './dictionary.ts';
import { createI18n, i18nFor, type I18n } from './index.ts';
import { dictionaryFor } from './languages.ts';
import type { Tenant } from '../tenants/schema.ts';

/** The booking widget's own texts (`widget.*`), resolved for one locale, sent along as JSON. */
export type WidgetText = Record<string, Message>;

/**
 * The widget's `I18n`: the tenant's, or the one of an embed's `data-locale` (the tenant's overrides
 * apply only when that locale speaks the tenant's language).
 */
export function widgetI18n(tenant: Tenant, locale: string | undefined): I18n {
  const own = i18nFor(tenant);
  if (!locale || locale === tenant.locale) return own;
  const sameLanguage = dictionaryFor(locale).language === own.language;
  return createI18n(locale, tenant.timeZone, sameLanguage ? tenant.messages : {});
}

export function widgetText(i18n: I18n): WidgetText {
  return Object.fromEntries(
    MESSAGE_KEYS.filter((key) => key.startsWith('widget.')).map((key) => [
      key.slice('widget.'.length),
      i18n.message(key),
    ]),
  );
}
