import { describe, expect, it } from 'vitest';
import { stepFlow } from '../../../src/lib/booking/steps/flow.ts';
import { config, offers, PROPERTY } from '../../fixtures/booking.ts';

const place = config.properties[0]!;
const link = (values: Record<string, string>) => new URLSearchParams(values);

describe('deep links to a stay (campaigns, price comparison, the embed’s fallback link)', () => {
  it('the steps read nights and room', async () => {
    const state = await stepFlow(
      link({
        property: PROPERTY,
        checkIn: '2099-03-28',
        nights: '2',
        adults: '2',
        room: 'double',
        step: 'details',
      }),
      {
        rules: () => ({ today: '2099-01-01', minNights: 1, maxNights: 21 }),
        properties: () => Promise.resolve([place]),
        availability: () => Promise.resolve(offers),
      },
      PROPERTY,
    );
    expect(state.step).toBe('details');
    expect(state.values).toMatchObject({ checkOut: '2099-03-30', roomTypeId: 'double' });
  });

  it('nights that are not a whole number from 1 to 365 leave check-out empty, as in the embed', async () => {
    const steps = {
      rules: () => ({ today: '2099-01-01', minNights: 1, maxNights: 21 }),
      properties: () => Promise.resolve([place]),
      availability: () => Promise.resolve(offers),
    };
    for (const nights of ['400', '0', '2.5', 'two']) {
      const state = await stepFlow(
        link({ property: PROPERTY, checkIn: '2099-03-28', nights, adults: '2' }),
        steps,
        PROPERTY,
      );
      expect(state.step).toBe('dates');
      expect(state.values['checkOut'], `nights=${nights}`).toBeUndefined();
    }
  });
});
