import { invalid, notFound } from '../lib/http.ts';
import { pageQuery, paginate } from '../lib/paginate.ts';
import { parse } from '../lib/validation.ts';
import type { MockState } from '../state.ts';
import type { LodgeApp, LodgeContext } from './context.ts';
import { checkStay, freeRooms, price } from './rules.ts';
import { AvailabilityQuerySchema } from './schemas.ts';
import { property } from './serialize.ts';
import { nightsBetween } from '../lib/dates.ts';

export const LODGING_PAGE = pageQuery(15, 100);

export function propertyRoutes(api: LodgeApp, state: MockState): void {
  const own = (c: LodgeContext) =>
    state.lodging.properties.filter((p) => p.accountId === c.get('token').accountId);

  api.get('/properties', (c) => {
    const page = parse(LODGING_PAGE, c.req.query());
    if (!page.ok) return invalid(c, page.errors);
    const list = own(c).sort((a, b) => a.name.localeCompare(b.name));
    return c.json(paginate(list, page.data, c.req.url, property));
  });

  api.get('/properties/:id', (c) => {
    const p = own(c).find((x) => x.id === c.req.param('id'));
    return p ? c.json({ data: property(p) }) : notFound(c);
  });

  api.get('/properties/:id/availability', (c) => {
    const p = own(c).find((x) => x.id === c.req.param('id'));
    if (!p) return notFound(c);
    const input = parse(AvailabilityQuerySchema, c.req.query());
    if (!input.ok) return invalid(c, input.errors);
    const { check_in, check_out } = input.data;
    const guests = input.data.guests ?? 1;
    const errors = {};
    checkStay(check_in, check_out, errors);
    if (Object.keys(errors).length) return invalid(c, errors);
    const nights = nightsBetween(check_in, check_out);
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
            total_price: price(rt, nights),
            currency: p.currency,
          };
        }),
      },
    });
  });
}
