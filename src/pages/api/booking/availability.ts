import type { APIRoute } from 'astro';
import { handle } from '../../../lib/booking/api/json.ts';
import { limit } from '../../../lib/booking/api/limits.ts';
import { availabilityQuerySchema } from '../../../lib/booking/domain/schema.ts';
import { fieldErrorsOf } from '../../../lib/failures/fields.ts';
import { invalid } from '../../../lib/booking/domain/failures.ts';

/** `GET ?property&checkIn&checkOut&adults&children`: the rooms free for that stay, with prices. */
export const GET: APIRoute = (context) =>
  handle(context, 'availability', async (service) => {
    const parsed = availabilityQuerySchema.safeParse(Object.fromEntries(context.url.searchParams));
    if (!parsed.success) throw invalid(fieldErrorsOf(parsed.error.issues));
    await limit(context, 'search');
    return service.availability(parsed.data);
  });
