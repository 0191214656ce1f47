import type { APIRoute } from 'astro';
import {
  assertSameOrigin,
  handle,
  otherMethods,
  parsedOr422,
  readJson,
} from '../../../lib/booking/api/json.ts';
import { bookAndMail } from '../../../lib/booking/mail/links.ts';
import { bookingPostSchema } from '../../../lib/booking/domain/schema.ts';
import { tenantUrl } from '../../../lib/tenants/origin.ts';

/**
 * `POST` JSON from this site's own pages: finds or creates the guest, then books once per key; the
 * answer's `manageUrl` is absolute, on the tenant's configured origin (as in the guest's e-mail).
 */
export const POST: APIRoute = (context) =>
  handle(context, 'book', async (service) => {
    assertSameOrigin(context);
    const body = await readJson(context.request);
    const { anotherRoom, ...stay } = parsedOr422(bookingPostSchema, body);
    const { confirmation, manage, mailed } = await bookAndMail(context, service, stay, anotherRoom);
    const manageUrl = tenantUrl(context.locals.tenantMatchOrNull, manage);
    return { ...confirmation, manageUrl, mailed };
  });

export const ALL = otherMethods({ POST });
