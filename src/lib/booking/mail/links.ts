import { randomUUID } from 'node:crypto';
import type { APIContext } from 'astro';
import { logError } from '../../log/log.ts';
import { tenantUrl } from '../../tenants/origin.ts';
import { limit, mayMail, unspendMail } from '../api/limits.ts';
import type { BookingRequest } from '../domain/schema.ts';
import { managePath } from '../manage/stay.ts';
import { referenceOf, type Confirmation } from '../service/lodging-shapes.ts';
import type { BookingService } from '../service/service.ts';

/** Booking, then mailing its private link; finding a booking and mailing its link again. */

type Visit = Pick<APIContext, 'locals'> & { session?: APIContext['session'] };

const BROWSER_KEY = 'booking:browser';

/**
 * The id of the browser booking, kept in its session (from its first booking; its session's id
 * until then, so two tabs booking at once are one browser): Back after a booking, or a second tab,
 * then books the same stay again only as "another room", whatever e-mail address is typed. An
 * embed's frame keeps no cookie: it gets no id, as a session stored for it would never be read
 * again (the e-mail and the idempotency key guard its bookings).
 * A new id is stored only once booked: a refused booking (Redis down) must not fail on saving it.
 */
async function browserOf(session: Visit['session']): Promise<{ id?: string; keep?: () => void }> {
  // Sessions in Redis: while it is down the booking goes on, guarded by the e-mail address.
  const kept: unknown = await session?.get(BROWSER_KEY).catch(() => null);
  if (!session || kept === null) return {};
  if (typeof kept === 'string') return { id: kept };
  // The session's own id before its first booking: two tabs that sent a form share it.
  const id = session.sessionID ?? randomUUID();
  return { id, keep: () => session.set(BROWSER_KEY, id) };
}

/** The manage link and the site's address for an e-mail, on the tenant's configured origin. */
function mailLinks(context: Visit, manage: string) {
  const manageUrl = tenantUrl(context.locals.tenantMatchOrNull, manage);
  const site = tenantUrl(context.locals.tenantMatchOrNull, '/');
  return manageUrl && site ? { manageUrl, site } : null;
}

/**
 * Books (within the visitor's limit), then makes the private link and sends the confirmation
 * e-mail (once; `mailed` says whether one went out, so no page promises an e-mail not sent).
 * The `bookStay` action and the JSON API both book through it.
 */
export async function bookAndMail(
  context: Visit,
  service: BookingService,
  guest: BookingRequest,
  anotherRoom: boolean,
): Promise<{ confirmation: Confirmation; manage: string; mailed: boolean }> {
  await limit(context, 'book');
  const browser = await browserOf(context.locals.embedAncestors ? undefined : context.session);
  const confirmation = await service.book(guest, { anotherRoom, browser: browser.id });
  browser.keep?.();
  // Without the tenant's path prefix (as `href` takes it).
  const manage = managePath(service.tenant.id, confirmation);
  const links = mailLinks(context, manage);
  const mailed = links
    ? await service.mailConfirmation({
        confirmation,
        to: guest.email,
        guestName: `${guest.firstName.trim()} ${guest.lastName.trim()}`,
        ...links,
      })
    : false;
  return { confirmation, manage, mailed };
}

/**
 * "Find my booking": e-mails the link to the address the booking was made with, after the answer,
 * so the answer (and its timing) is the same whether or not the booking exists.
 */
export function findAndMail(
  context: Visit,
  service: BookingService,
  email: string,
  reference: string,
): Promise<void> {
  const run = async () => {
    const booking = await service.findStay(email, reference);
    if (!booking) return;
    const booked = referenceOf(booking);
    const path = managePath(service.tenant.id, {
      propertyId: String(booking.property_id ?? ''),
      checkIn: booking.check_in,
      reference: booked,
    });
    const links = mailLinks(context, path);
    // At most a few link mails per address and per booking: many finds (from many addresses)
    // cannot fill one guest's inbox. The answer was given before: it is the same either way.
    if (!links || !(await mayMail(service.tenant.id, email, booked))) return;
    // Not sent (the mail server refused it): a later find may mail it.
    if (!(await service.mailLink({ booking, guestName: '', ...links })))
      await unspendMail(service.tenant.id, email, booked);
  };
  return run().catch((error: unknown) => {
    logError('booking.find_failed', { tenant: service.tenant.id }, error);
  });
}
