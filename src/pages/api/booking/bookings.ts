import type { APIRoute } from 'astro';
import {
  afterBooking,
  assertSameOrigin,
  handle,
  limit,
  readJson,
} from '../../../lib/booking/api/plumbing.ts';
import { bookingRequestSchema } from '../../../lib/booking/domain/schema.ts';
import { fieldErrorsOf } from '../../../lib/failures/fields.ts';
import { invalid } from '../../../lib/booking/domain/failures.ts';

/** `POST` JSON from this site's own pages: finds or creates the guest, then books once per key. */
export const POST: APIRoute = (context) =>
  handle(context, 'book', async (service) => {
    assertSameOrigin(context);
    const body = await readJson(context.request);
    // `anotherRoom: true`: the guest chose to book the same stay once more (a `same_stay` refusal).
    const { anotherRoom, ...request } = (body && typeof body === 'object' ? body : {}) as Record<
      string,
      unknown
    >;
    const parsed = bookingRequestSchema.safeParse(request);
    if (!parsed.success) throw invalid(fieldErrorsOf(parsed.error.issues));
    await limit(context, 'book');
    const confirmation = await service.book(parsed.data, { anotherRoom: anotherRoom === true });
    // The guest's private link back to this booking, and the e-mail that carries it.
    const { manage, mailed } = await afterBooking(context, service, confirmation, parsed.data);
    return { ...confirmation, manageUrl: context.locals.href(manage), mailed };
  });
