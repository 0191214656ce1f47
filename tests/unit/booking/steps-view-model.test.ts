import { describe, expect, it } from 'vitest';
import { stepsModel } from '../../../src/lib/booking/steps/view-model.ts';
import type { StepState } from '../../../src/lib/booking/steps/flow.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { config, confirmation, offers, PROPERTY } from '../../fixtures/booking.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { todayIn } from '../../../src/lib/booking/domain/dates.ts';

const tenant = buildTenant();
const english = createI18n('en-GB', 'Europe/London');
const guest = {
  property: PROPERTY,
  checkIn: '2099-03-28',
  checkOut: '2099-03-30',
  adults: '2',
  children: '0',
  roomTypeId: 'double',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '',
  nationality: 'GB',
  notes: 'Late arrival',
  idempotencyKey: 'k'.repeat(32),
};
const view = (step: StepState['step'], extra: Partial<StepState> = {}): StepState => ({
  step,
  values: guest,
  errors: {},
  offers,
  message: '',
  ...extra,
});

describe('what a booking step shows', () => {
  it('the calendar starts at today where the place is, else where the tenant is', () => {
    // 26 hours apart: the two zones never share a date.
    const behind = buildTenant({ timeZone: 'Etc/GMT+12' });
    const ahead = { ...config.properties[0]!, timeZone: 'Etc/GMT-14' };
    const model = stepsModel(view('dates'), [ahead], behind, english);
    expect(model.today).toBe(todayIn('Etc/GMT-14'));
    expect(JSON.parse(model.calendarRules)).toMatchObject({ today: todayIn('Etc/GMT-14') });
    const { timeZone: _none, ...unzoned } = ahead;
    expect(stepsModel(view('dates'), [unzoned], behind, english).today).toBe(todayIn('Etc/GMT+12'));
  });

  it('room cards say their facts, and what a partner hears of a choice has no personal data', () => {
    const model = stepsModel(view('rooms'), config.properties, tenant, english);
    const [double, suite] = model.rooms;
    expect(double?.facts.perNight).toContain('100');
    expect(suite?.facts.why).toBeTruthy();
    expect(JSON.parse(double?.chosen ?? '{}')).toEqual({
      propertyId: PROPERTY,
      roomTypeId: 'double',
      checkIn: '2099-03-28',
      checkOut: '2099-03-30',
      nights: 2,
      value: 200,
      currency: 'EUR',
    });
    expect(model.searchFacts).not.toContain('Ada');
    expect(model.searchLine).toContain('2 nights');
  });

  it('the review lists the stay and the details as typed, and keeps the booking’s key', () => {
    const model = stepsModel(view('review'), config.properties, tenant, english);
    const rows = Object.fromEntries(model.reviewRows);
    expect(rows).toMatchObject({
      Place: 'Harbour View Hotel',
      Room: 'Double',
      Name: 'Ada Lovelace',
      Nationality: 'United Kingdom',
      Notes: 'Late arrival',
    });
    expect(model.idempotencyKey).toBe(guest.idempotencyKey);
  });

  it('a first visit gets a new booking key; the dates step says the nights and the calendar rules', () => {
    const model = stepsModel(
      view('dates', {
        values: { property: PROPERTY, checkIn: '2099-03-28', checkOut: '2099-03-31' },
      }),
      config.properties,
      tenant,
      english,
    );
    expect(model.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
    expect(model.nights).toBe('3 nights');
    expect(JSON.parse(model.calendarRules)).toMatchObject({ minNights: 1, maxNights: 30 });
  });

  it('the done step shows the confirmation, and a partner hears the booking without the guest', () => {
    const booked = { confirmation, manage: '/stay/manage/t.s', mailed: true, email: guest.email };
    const model = stepsModel(view('done', { booked }), config.properties, tenant, english);
    expect(model.booked?.view.heading).toBe('Request received');
    expect(Object.fromEntries(model.booked?.view.rows ?? [])).toMatchObject({
      'Booking reference': 'BK-ABC123',
    });
    expect(JSON.parse(model.bookedFacts ?? '{}')).toMatchObject({
      reference: 'BK-ABC123',
      totalPrice: 200,
      currency: 'EUR',
    });
    expect(model.bookedFacts).not.toContain('ada@example.com');
  });

  it('sends the element only the texts it says itself, in the page’s language', () => {
    const german = createI18n('de-CH', 'Europe/Zurich');
    const text = JSON.parse(
      stepsModel(view('dates'), config.properties, tenant, german).browserText,
    ) as Record<string, unknown>;
    expect(Object.keys(text).sort()).toEqual([
      'calendarHint',
      'nextMonth',
      'nights',
      'offline',
      'prevMonth',
      'searching',
      'sending',
    ]);
    expect(text['offline']).not.toBe(
      'We could not reach the booking service. Your details are kept: please try again.',
    );
  });

  it('a detail the tenant requires says so in its label; the dates are labelled in the summary’s words', () => {
    const strict = buildTenant({
      lodging: {
        baseUrl: 'https://lodging.example.com/api/v1',
        propertyIds: [PROPERTY],
        fields: { phone: { required: true }, notes: { required: true, maxLength: 300 } },
      },
    });
    const model = stepsModel(view('details'), config.properties, strict, english);
    expect(model.detail('phone')).toMatchObject({ label: 'Phone', required: true });
    expect(model.detail('notes')).toMatchObject({ label: 'Notes for the hotel', required: true });
    expect(model.detail('nationality')).toMatchObject({
      label: 'Nationality (optional)',
      required: false,
      value: 'GB',
    });
    expect(model.notesMax).toBe(300);
    expect(model.field('checkIn').label).toBe('Check-in');
    expect(model.field('firstName')).toMatchObject({ id: 'booking-firstName', value: 'Ada' });
  });

  it('the done step’s address is the manage page on the site, and the widget’s start in an embed', () => {
    const booked = { confirmation, manage: '/stay/manage/t.s', mailed: true, email: guest.email };
    const done = view('done', { booked });
    const href = (path: string) => `/harbour${path}`;
    const site = stepsModel(done, config.properties, tenant, english, { base: '/stay', href });
    expect(site.url).toBe('/harbour/stay/manage/t.s?mailed=1');
    expect(site.manage).toBe('/harbour/stay/manage/t.s');
    const embed = stepsModel(done, config.properties, tenant, english, {
      base: '/embed/booking',
      keep: { property: PROPERTY, origin: 'https://partner.example' },
      parentOrigin: 'https://partner.example',
      href,
    });
    expect(embed.url).toBe(
      `/embed/booking?property=${PROPERTY}&origin=${encodeURIComponent('https://partner.example')}`,
    );
    expect(embed.storageKey).toBe(`${tenant.id}:${PROPERTY}`);
    expect(embed.choosePlace).toBe(false);
  });
});
