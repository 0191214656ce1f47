import { describe, expect, it } from 'vitest';
import BookingSteps from '../../../src/components/booking/BookingSteps.astro';
import type { StepState } from '../../../src/lib/booking/steps/flow.ts';
import type { PropertySummary } from '../../../src/lib/booking/service/lodging-shapes.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { todayIn } from '../../../src/lib/booking/domain/dates.ts';
import { config, confirmation, offers, PROPERTY } from '../../fixtures/booking.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { render } from './render.ts';

// What a refused step offers: never a button that does something else than it says.
const i18n = createI18n('en-GB', 'Europe/London');
const place = config.properties[0]!;
const lodge: PropertySummary = {
  ...place,
  id: 'b0a0c0d0-0000-4000-8000-000000000001',
  name: 'Bay Lodge',
  city: 'Saltcove',
  capacity: { maxAdults: 6, maxChildren: 4, maxOccupancy: 6 },
};
const contact = { phone: '+44 20 7946 0000', email: 'rooms@harbour-hotels.test' };
const tenant = buildTenant({
  id: 'harbour-times',
  features: { booking: true },
  lodging: {
    baseUrl: 'https://lodging.example/api/v1',
    tokenEnv: 'T',
    propertyIds: [PROPERTY],
    contact,
  },
});
const search = {
  property: PROPERTY,
  checkIn: '2099-03-28',
  checkOut: '2099-03-30',
  adults: '2',
  children: '0',
};
const details = {
  ...search,
  propertyId: PROPERTY,
  roomTypeId: 'double',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  idempotencyKey: 'key0000000000000000',
};

function steps(state: Partial<StepState>) {
  const view: StepState = {
    step: 'review',
    values: details,
    errors: {},
    offers,
    message: '',
    ...state,
  };
  return render(BookingSteps, {
    props: { state: view, properties: [place, lodge], i18n, base: '/stay' },
    locals: { tenant, href: (path: string) => path } as App.Locals,
  });
}

describe('booking refusals', () => {
  it('the same stay booked moments ago: find it, or book another room knowingly; no “Book”, no “Try again”', async () => {
    const view = await steps({
      message: 'This stay was booked moments ago.',
      sameStay: true,
      retry: false,
    });
    expect(view.getByRole('alert').textContent).toContain('booked moments ago');
    expect(view.getByRole('link', { name: 'Find that booking' }).getAttribute('href')).toBe(
      '/stay/manage',
    );
    const another = view.getByRole('button', { name: 'Book another room for the same dates' });
    expect(another.getAttribute('value')).toBe('another');
    expect(view.queryByRole('button', { name: 'Book' })).toBeNull();
    expect(view.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('a booking whose answer was lost: “Try again” and a link to find that booking, no other room', async () => {
    const view = await steps({
      message: 'The booking service did not confirm this booking in time.',
      maybeBooked: true,
      retry: true,
      wait: 0,
    });
    expect(view.getByRole('link', { name: 'Find that booking' }).getAttribute('href')).toBe(
      '/stay/manage',
    );
    expect(view.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(view.queryByRole('button', { name: 'Book another room for the same dates' })).toBeNull();
  });

  it('a wait (“try again in 6 minutes”): the “Try again” button is hidden until it is over', async () => {
    const view = await steps({
      message: 'Too many bookings. Please try again in 6 minutes.',
      retry: true,
      wait: 360,
    });
    const retry = view.body.querySelector<HTMLElement>('[data-retry-after]');
    expect(retry?.hasAttribute('hidden')).toBe(true);
    expect(retry?.dataset['retryAfter']).toBe('360');
    expect(view.queryByRole('button', { name: 'Try again' })).toBeNull();
    // With no wait (down a moment), it is offered at once.
    const now = await steps({
      message: 'Booking is temporarily unavailable.',
      retry: true,
      wait: 0,
    });
    expect(now.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('the hotel’s phone and e-mail in a message are tel: and mailto: links', async () => {
    const view = await steps({
      message: `Booked moments ago. Contact the hotel: ${contact.phone} · ${contact.email}.`,
      sameStay: true,
    });
    expect(view.getByRole('link', { name: contact.phone }).getAttribute('href')).toBe(
      'tel:+442079460000',
    );
    expect(view.getByRole('link', { name: contact.email }).getAttribute('href')).toBe(
      `mailto:${contact.email}`,
    );
  });

  it('the guests step names the place; a party too big for it is offered the places that take it, dates kept', async () => {
    const view = await steps({
      step: 'guests',
      values: { ...search, adults: '3' },
      offers: null,
      errors: { adults: ['Rooms at Harbour View Hotel take at most 2 adults.'] },
      alternatives: [lodge.id],
    });
    expect(view.getByText('Staying at Harbour View Hotel, Port Haven')).toBeTruthy();
    expect(view.getByText('This place takes your party, for the same dates:')).toBeTruthy();
    const link = new URL(
      view.getByRole('link', { name: 'Bay Lodge, Saltcove' }).getAttribute('href')!,
      'http://x',
    );
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      step: 'rooms',
      property: lodge.id,
      checkIn: '2099-03-28',
      checkOut: '2099-03-30',
      adults: '3',
    });
  });

  it('a stay that has passed says so on the dates step', async () => {
    const view = await steps({
      step: 'dates',
      values: { property: PROPERTY, adults: '2' },
      offers: null,
      stale: { checkIn: '2020-03-01', checkOut: '2020-03-03' },
    });
    expect(view.body.querySelector('[data-stale-dates]')?.textContent).toContain(
      'These dates have passed',
    );
    expect(view.getByLabelText<HTMLInputElement>('Check-in').value).toBe('');
  });

  it.each([
    ['a stay in the future', '2099-03-28', 'See or cancel this booking later'],
    [
      'a stay starting today (no cancel online any more)',
      todayIn('Europe/London'),
      'See this booking later',
    ],
  ])('the done step of %s offers its link as “%s”', async (_label, checkIn, text) => {
    const booked = {
      confirmation: { ...confirmation, checkIn },
      manage: '/stay/manage/t',
      mailed: false,
      email: '',
    };
    const view = await steps({ step: 'done', booked });
    expect(view.body.querySelector('.manage a')?.textContent?.trim()).toBe(text);
    // The file names itself (its Content-Disposition), as from the manage page's link.
    const calendar = view.getByRole('link', { name: 'Add to calendar' });
    expect(calendar.getAttribute('href')).toBe('/stay/manage/t/calendar.ics');
    expect(calendar.getAttribute('download')).toBe('');
  });
});
