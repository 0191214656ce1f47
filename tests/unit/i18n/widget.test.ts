import { describe, expect, it } from 'vitest';
import { widgetI18n, widgetSay } from '../../../src/lib/i18n/widget.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const tenant = buildTenant({
  locale: 'de-CH',
  timeZone: 'Europe/Zurich',
  messages: { 'widget.total': 'Gesamtbetrag' },
});

describe('the booking widget’s texts', () => {
  it('speak the tenant’s language, overrides included', () => {
    const i18n = widgetI18n(tenant, undefined);
    const say = widgetSay(i18n);
    expect(say('nights', { count: 1 })).toBe('1 Nacht');
    expect(say('nights', { count: 3 })).toBe('3 Nächte');
    expect(say('total')).toBe('Gesamtbetrag');
  });

  it('follow an embed’s data-locale, without the other language’s overrides', () => {
    const i18n = widgetI18n(tenant, 'fr-CH');
    const say = widgetSay(i18n);
    expect(i18n.locale).toBe('fr-CH');
    expect(say('nights', { count: 2 })).toBe('2 nuits');
    expect(say('total')).toBe('Total');
  });
});
