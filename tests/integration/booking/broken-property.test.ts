import { describe, expect, it } from 'vitest';
import { BookingFailure } from '../../../src/lib/booking/domain/failures.ts';
import { stepFlow } from '../../../src/lib/booking/steps/flow.ts';
import { english } from '../../fixtures/english.ts';
import { useMock } from '../harness.ts';
import { HARBOUR_VIEW, serviceFor } from './fixture.ts';

// One of a tenant's places whose lodging read fails (gone from the API, or answered without what
// the site needs) must not take the others down: the dates step (on /stay and in every embed of
// the tenant) shows the places that answer; only when none answers is it an error page.
const mock = useMock({ reset: true });
const SEAVIEW = 'a06218e9-2a16-55fd-a201-69b7dcb570ce';

const breaks = {
  'gone from the lodging API': (id: string) => {
    const places = mock.state.lodging.properties;
    places.splice(
      places.findIndex((p) => p.id === id),
      1,
    );
  },
  'answered without its currency': (id: string) => {
    const place: { currency?: string } | undefined = mock.state.lodging.properties.find(
      (p) => p.id === id,
    );
    delete place?.currency;
  },
};

describe.each(Object.entries(breaks))('a tenant’s place %s', (_label, breakPlace) => {
  it('leaves the dates step (and the list of places) to the places that answer', async () => {
    breakPlace(SEAVIEW);
    const { service } = serviceFor(mock.lodgingUrl, {
      lodging: { propertyIds: [HARBOUR_VIEW, SEAVIEW] },
    });
    const places = await service.properties();
    expect(places.map((place) => place.id)).toEqual([HARBOUR_VIEW]);
    const step = await stepFlow(new URLSearchParams(), service, HARBOUR_VIEW);
    expect(step.step).toBe('dates');
    expect(step.values['property']).toBe(HARBOUR_VIEW);
  });

  it('tells the reader of a link to that place that it cannot be booked online now', async () => {
    breakPlace(SEAVIEW);
    const { service } = serviceFor(mock.lodgingUrl, {
      lodging: { propertyIds: [HARBOUR_VIEW, SEAVIEW] },
    });
    const step = await stepFlow(new URLSearchParams({ property: SEAVIEW }), service, HARBOUR_VIEW);
    expect(step.step).toBe('dates');
    expect(english(step.message)).toMatch(/^This place cannot be booked online right now\./);
    // A link to a place that answers says nothing of the other.
    const fine = await stepFlow(new URLSearchParams({ property: HARBOUR_VIEW }), service, '');
    expect(fine.message).toBe('');
  });

  it('is refused as before when it is the only place that cannot be read', async () => {
    breakPlace(SEAVIEW);
    breakPlace(HARBOUR_VIEW);
    const { service } = serviceFor(mock.lodgingUrl, {
      lodging: { propertyIds: [HARBOUR_VIEW, SEAVIEW] },
    });
    await expect(service.properties()).rejects.toBeInstanceOf(BookingFailure);
  });
});
