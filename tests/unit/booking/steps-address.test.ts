import { describe, expect, it } from 'vitest';
import { stepAddress } from '../../../src/lib/booking/steps/address.ts';

describe('stepAddress', () => {
  it('keeps a tenant query as hidden fields, since a GET form drops its action’s query', () => {
    const address = stepAddress('/stay?tenant=harbour-times');
    expect(address.action).toBe('/stay');
    expect(address.hidden).toEqual([['tenant', 'harbour-times']]);
    expect(address.link('?step=guests&checkIn=2027-01-02')).toBe(
      '/stay?tenant=harbour-times&step=guests&checkIn=2027-01-02',
    );
    expect(address.link('?_action=bookStay')).toBe('/stay?tenant=harbour-times&_action=bookStay');
  });

  it('keeps an embed’s origin and locale, and leaves out empty ones', () => {
    const address = stepAddress('/harbour-times/embed/booking', {
      origin: 'https://partner.example',
      locale: '',
    });
    expect(address.action).toBe('/harbour-times/embed/booking');
    expect(address.hidden).toEqual([['origin', 'https://partner.example']]);
    expect(address.link('')).toBe(
      '/harbour-times/embed/booking?origin=https%3A%2F%2Fpartner.example',
    );
  });

  it('is the bare path when nothing is kept', () => {
    expect(stepAddress('/stay').link('')).toBe('/stay');
  });
});
