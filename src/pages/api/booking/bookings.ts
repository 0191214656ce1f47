import type { APIRoute } from 'astro';
import { assertSameOrigin, handle, limit, readJson } from '../../../lib/booking/endpoint.ts';
import { bookingRequestSchema, fieldErrorsOf } from '../../../lib/booking/schema.ts';
import { invalid } from '../../../lib/booking/service.ts';

/** `POST` JSON from this site's own pages: finds or creates the guest, then books once per key. */
export const POST: APIRoute = (context) =>
  handle(context, 'book', async (service) => {
    assertSameOrigin(context);
    const parsed = bookingRequestSchema.safeParse(await readJson(context.request));
    if (!parsed.success) throw invalid(fieldErrorsOf(parsed.error));
    await limit(context, 'book');
    return service.book(parsed.data);
  });
