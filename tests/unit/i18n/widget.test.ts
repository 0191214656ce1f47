import { describe, expect, it } from 'vitest';
import { widgetI18n, widgetText } from '../../../src/lib/i18n/widget.ts';
import { sayer } from '../../../src/lib/i18n/say.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const tenant = buildTenant({
  locale: 'de-CH',
  timeZone: 'Europe/Zurich',
  messages: { 'widget.total': 'Gesamtbetrag' },
});

describe('the booking widget’s texts', () => {
  it('speak the tenant’s language, overrides included', () => {
    const i18n = widgetI18n(tenant, undefined);
    const say = sayer(widgetText(i18n), i18n.locale);
    expect(say('nights', { count: 1 })).toBe('1 Nacht');
    expect(say('nights', { count: 3 })).toBe('3 Nächte');
    expect(say('total')).toBe('Gesamtbetrag');
  });

  it('follow an embed’s data-locale, without the other language’s overrides', () => {
    const i18n = widgetI18n(tenant, 'fr-CH');
    const say = sayer(widgetText(i18n), i18n.locale);
    expect(i18n.locale).toBe('fr-CH');
    expect(say('nights', { count: 2 })).toBe('2 nuits');
    expect(say('total')).toBe('Total');
  });

  it('send the widget’s own keys and the booking rules’ messages, nothing else', () => {
    const keys = Object.keys(widgetText(widgetI18n(tenant, undefined)));
    expect(keys).toContain('reference');
    expect(keys).toContain('booking.error.checkInPast');
    const other = keys.filter((key) => key.includes('.') && !key.startsWith('booking.error.'));
    expect(other).toEqual(['booking.unavailable']);
  });
});
