import type { MessageKey } from './dictionary.ts';
import { createI18n, i18nFor, type I18n } from './index.ts';
import { dictionaryFor } from './languages.ts';
import type { Tenant } from '../tenants/schema.ts';

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

/** The server's `t` spoken as the widget's `say` (keys without `widget.`), for presenters both share. */
export function widgetSay(i18n: Pick<I18n, 't'>) {
  return (key: string, values?: Readonly<Record<string, string | number>>): string =>
    i18n.t(`widget.${key}` as MessageKey, values);
}
