import type { APIRoute } from 'astro';
import { handle, otherMethods, parsedOr422 } from '../../../lib/booking/api/json.ts';
import { limit } from '../../../lib/booking/api/limits.ts';
import { availabilityQuerySchema } from '../../../lib/booking/domain/schema.ts';

/** `GET ?property&checkIn&checkOut&adults&children`: the rooms free for that stay, with prices. */
export const GET: APIRoute = (context) =>
  handle(context, 'availability', async (service) => {
    const params = Object.fromEntries(context.url.searchParams);
    const query = parsedOr422(availabilityQuerySchema, params);
    await limit(context, 'search');
    return service.availability(query);
  });

export const ALL = otherMethods({ GET });
