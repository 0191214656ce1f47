import { nightsBetween } from '../lib/dates.ts';
import { invalid, notFound } from '../lib/http.ts';
import { paginate } from '../lib/paginate.ts';
import { parse } from '../lib/validation.ts';
import type { MockState } from '../state.ts';
import type { LodgeApp, LodgeContext } from './context.ts';
import { isAlt, rulesOf } from './dialect.ts';
import { checkStay, freeRooms, price } from './rules.ts';
import { AvailabilityQuerySchema } from './schemas.ts';
import { property } from './serialize.ts';
import { altAvailability, altProperty } from './serialize-alt.ts';

export function propertyRoutes(api: LodgeApp, state: MockState): void {
  const own = (c: LodgeContext) =>
    state.lodging.properties.filter((p) => p.accountId === c.get('token').accountId);

  api.get('/properties', (c) => {
    const page = parse(rulesOf(c).page, c.req.query());
    if (!page.ok) return invalid(c, page.errors);
    const list = own(c).sort((a, b) => a.name.localeCompare(b.name));
    if (isAlt(c)) {
      // `Property::forPage($page, $perPage)->get()`: a bare array, no page information.
      const { page: n, per_page } = page.data;
      return c.json(list.slice((n - 1) * per_page, n * per_page).map(altProperty));
    }
    return c.json(paginate(list, page.data, c.req.url, property));
  });

  api.get('/properties/:id', (c) => {
    const p = own(c).find((x) => x.id === c.req.param('id'));
    if (!p) return notFound(c);
    return c.json(isAlt(c) ? altProperty(p) : { data: property(p) });
  });

  api.get('/properties/:id/availability', (c) => {
    const p = own(c).find((x) => x.id === c.req.param('id'));
    if (!p) return notFound(c);
    const input = parse(AvailabilityQuerySchema, c.req.query());
    if (!input.ok) return invalid(c, input.errors);
    const { check_in, check_out } = input.data;
    const guests = input.data.guests ?? 1;
    const errors = {};
    checkStay(check_in, check_out, p.timezone, errors);
    if (Object.keys(errors).length) return invalid(c, errors);
    const nights = nightsBetween(check_in, check_out);
    if (isAlt(c)) {
      return c.json(altAvailability(state.lodging, p, { check_in, check_out, guests, nights }));
    }
    return c.json({
      data: {
        property_id: p.id,
        check_in,
        check_out,
        nights,
        guests,
        currency: p.currency,
        room_types: p.roomTypes.map((rt) => {
          const free = freeRooms(state.lodging, rt, check_in, check_out);
          return {
            room_type_id: rt.id,
            name: rt.name,
            max_occupancy: rt.maxOccupancy,
            available_rooms: free,
            available: free > 0 && guests <= rt.maxOccupancy,
            price_per_night: rt.basePrice,
            total_price: price(rt, check_in, check_out),
            currency: p.currency,
          };
        }),
      },
    });
  });
}
