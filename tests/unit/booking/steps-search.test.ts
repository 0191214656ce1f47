import { describe, expect, it, vi } from 'vitest';
import { busy, invalid, placeNotFound } from '../../../src/lib/booking/domain/failures.ts';
import { stepFlow, stepQuery } from '../../../src/lib/booking/steps/flow.ts';
import type { PropertySummary } from '../../../src/lib/booking/service/lodging-shapes.ts';
import { PROPERTY, offers } from '../../fixtures/booking.ts';
import { english } from '../../fixtures/english.ts';

/** A place whose one room type takes `capacity`. */
const roomsFor = (capacity: PropertySummary['capacity']) => ({
  capacity,
  roomTypes: [{ id: 'double', name: 'Double', description: '', ...capacity }],
});

const place: PropertySummary = {
  id: PROPERTY,
  name: 'Harbour View Hotel',
  currency: 'EUR',
  city: 'Port Haven',
  ...roomsFor({ maxAdults: 4, maxChildren: 2, maxOccupancy: 4 }),
};

function service(availability = vi.fn(() => Promise.resolve(offers))) {
  return {
    rules: () => ({ today: '2099-01-01', minNights: 1, maxNights: 21 }),
    properties: () => Promise.resolve([place]),
    availability,
  };
}

const query = (values: Record<string, string>) => new URLSearchParams(values);
const search = { property: PROPERTY, checkIn: '2099-03-28', checkOut: '2099-03-30' };

describe('the booking without JavaScript', () => {
  it('starts on the dates, with the first place and two adults', async () => {
    const state = await stepFlow(query({}), service(), PROPERTY);
    expect(state).toMatchObject({ step: 'dates', values: { property: PROPERTY, adults: '2' } });
  });

  it('sends bad dates back to the dates step with messages, asking nothing upstream', async () => {
    const api = service();
    const state = await stepFlow(
      query({ ...search, step: 'rooms', checkOut: '2099-03-27', adults: '2' }),
      api,
      PROPERTY,
    );
    expect(state.step).toBe('dates');
    expect(state.errors['checkOut']).toBeDefined();
    expect(api.availability).not.toHaveBeenCalled();
  });

  it.each([
    ['no adult', { adults: '0' }, 'guests'],
    ['no room chosen', { adults: '2', step: 'details' }, 'rooms'],
    ['a sold-out room', { adults: '2', step: 'details', roomTypeId: 'suite' }, 'rooms'],
    ['a free room', { adults: '2', step: 'details', roomTypeId: 'double' }, 'details'],
  ])('with %s it shows the %s step', async (_case, extra, step) => {
    const state = await stepFlow(
      query({ ...search, step: 'rooms', ...extra }),
      service(),
      PROPERTY,
    );
    expect(state.step).toBe(step);
  });

  it('a crafted children=1.5 stays on the guests step, told to enter a whole number', async () => {
    const api = service();
    const state = await stepFlow(
      query({ ...search, step: 'rooms', adults: '2', children: '1.5' }),
      api,
      PROPERTY,
    );
    expect(state.step).toBe('guests');
    expect(english(state.errors)).toEqual({ children: ['Enter a whole number of children.'] });
    expect(api.availability).not.toHaveBeenCalled();
  });

  it('a refusal by the server goes to the step of the refused field', async () => {
    const api = service(vi.fn(() => Promise.reject(invalid({ checkIn: ['Too late.'] }))));
    const state = await stepFlow(query({ ...search, step: 'rooms', adults: '2' }), api, PROPERTY);
    expect(state).toMatchObject({ step: 'dates', errors: { checkIn: ['Too late.'] } });
  });

  it('a refusal of the party by the server stays on the guests step', async () => {
    const api = service(vi.fn(() => Promise.reject(invalid({ adults: ['Too many.'] }))));
    const state = await stepFlow(query({ ...search, step: 'rooms', adults: '2' }), api, PROPERTY);
    expect(state).toMatchObject({ step: 'guests', errors: { adults: ['Too many.'] } });
  });

  it('a busy or down lodging API keeps the guests step with its reason, and offers to try again', async () => {
    const api = service(vi.fn(() => Promise.reject(busy('booking.error.busy', 12))));
    const state = await stepFlow(
      query({ ...search, step: 'rooms', adults: '3', children: '1' }),
      api,
      PROPERTY,
    );
    expect(state).toMatchObject({
      step: 'guests',
      message: 'booking.error.busy',
      retry: true,
      // "Try again" is offered only once the 12 s the message names are over.
      wait: 12,
      values: { adults: '3', children: '1' },
    });
  });

  it('a place the API no longer knows is not turned into a step (the page says not found)', async () => {
    const api = service(vi.fn(() => Promise.reject(placeNotFound())));
    await expect(
      stepFlow(query({ ...search, step: 'rooms', adults: '2' }), api, PROPERTY),
    ).rejects.toThrow();
  });

  it('Back links carry the search so far', () => {
    const link = new URLSearchParams(stepQuery({ ...search, adults: '3', children: '' }, 'guests'));
    expect(Object.fromEntries(link)).toEqual({ step: 'guests', ...search, adults: '3' });
  });

  it('a party too big for the chosen place is told so by name, and which other places take it', async () => {
    const small = { ...place, ...roomsFor({ maxAdults: 2, maxChildren: 1, maxOccupancy: 3 }) };
    const big = {
      ...place,
      id: 'other',
      name: 'Bay Lodge',
      ...roomsFor({ maxAdults: 6, maxChildren: 4, maxOccupancy: 6 }),
    };
    const tiny = {
      ...place,
      id: 'tiny',
      name: 'Cabin',
      ...roomsFor({ maxAdults: 1, maxChildren: 0, maxOccupancy: 1 }),
    };
    const api = { ...service(), properties: () => Promise.resolve([small, big, tiny]) };
    const state = await stepFlow(query({ ...search, step: 'rooms', adults: '3' }), api, PROPERTY);
    expect(state.step).toBe('guests');
    expect(state.errors['adults']?.[0]).toContain('"place":"Harbour View Hotel"');
    expect(state.alternatives).toEqual(['other']);
    expect(api.availability).not.toHaveBeenCalled();
  });

  it('an empty Children field is no children, as the booking reads it: no error, the rooms', async () => {
    const api = service();
    const asked = query({ ...search, step: 'rooms', adults: '2', children: '' });
    const state = await stepFlow(asked, api, PROPERTY);
    expect(state).toMatchObject({ step: 'rooms', errors: {} });
    expect(api.availability).toHaveBeenCalledWith(expect.objectContaining({ children: 0 }));
  });

  it('a party within the place’s limits that no one room takes is told so on the guests step, not "nothing free"', async () => {
    const family = { maxAdults: 2, maxChildren: 2, maxOccupancy: 4 };
    const quad = {
      id: 'quad',
      name: 'Quad',
      description: '',
      ...family,
      maxAdults: 4,
      maxChildren: 0,
    };
    const mixed = { ...place, roomTypes: [...roomsFor(family).roomTypes, quad] };
    const api = { ...service(), properties: () => Promise.resolve([mixed]) };
    const asked = query({ ...search, step: 'rooms', adults: '3', children: '1' });
    const state = await stepFlow(asked, api, PROPERTY);
    expect(state.step).toBe('guests');
    expect(state.errors['children']?.[0]).toContain('booking.error.partyNoRoom');
    expect(api.availability).not.toHaveBeenCalled();
  });

  it('a stay that has passed (an old link) is dropped with a notice: the dates step, no dates', async () => {
    const state = await stepFlow(
      query({
        ...search,
        checkIn: '2098-12-20',
        checkOut: '2098-12-22',
        adults: '3',
        step: 'rooms',
      }),
      service(),
      PROPERTY,
    );
    expect(state.step).toBe('dates');
    expect(state.stale).toEqual({ checkIn: '2098-12-20', checkOut: '2098-12-22' });
    expect(state.values['checkIn']).toBeUndefined();
    expect(state.values['checkOut']).toBeUndefined();
    expect(state.values['adults']).toBe('3');
    expect(state.errors).toEqual({});
    // A past date typed on the dates step (its form asks for the guests step): the field's message.
    const typed = await stepFlow(
      query({ ...search, checkIn: '2098-12-20', checkOut: '2098-12-22', step: 'guests' }),
      service(),
      PROPERTY,
    );
    expect(typed).toMatchObject({ step: 'dates', values: { checkIn: '2098-12-20' } });
    expect(typed.stale).toBeUndefined();
    expect(typed.errors['checkIn']).toBeDefined();
    // Today's stay is not stale.
    const current = await stepFlow(
      query({ ...search, checkIn: '2099-01-01', checkOut: '2099-01-02' }),
      service(),
      PROPERTY,
    );
    expect(current.stale).toBeUndefined();
  });
});
