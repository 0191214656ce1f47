import type { APIRoute } from 'astro';
import { assertSameOrigin, handle, readJson } from '../../../lib/booking/api/json.ts';
import { bookAndMail } from '../../../lib/booking/mail/links.ts';
import { bookingPostSchema } from '../../../lib/booking/domain/schema.ts';
import { fieldErrorsOf } from '../../../lib/failures/fields.ts';
import { invalid } from '../../../lib/booking/domain/failures.ts';

/** `POST` JSON from this site's own pages: finds or creates the guest, then books once per key. */
export const POST: APIRoute = (context) =>
  handle(context, 'book', async (service) => {
    assertSameOrigin(context);
    const parsed = bookingPostSchema.safeParse(await readJson(context.request));
    if (!parsed.success) throw invalid(fieldErrorsOf(parsed.error.issues));
    const { anotherRoom, ...stay } = parsed.data;
    const { confirmation, manage, mailed } = await bookAndMail(context, service, stay, anotherRoom);
    return { ...confirmation, manageUrl: context.locals.href(manage), mailed };
  });
