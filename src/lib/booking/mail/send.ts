import type { Booking } from '../../lodging/schema.ts';
import { i18nFor } from '../../i18n/index.ts';
import { stayDate } from '../../i18n/format.ts';
import { logError } from '../../log/log.ts';
import { contactLine } from '../domain/contact.ts';
import { normalizeEmail } from '../domain/email.ts';
import type { Confirmation, PropertySummary } from '../domain/types.ts';
import type { ServiceCore } from '../service/core.ts';
import { mailClaim } from '../service/idempotency.ts';
import { confirmationMail } from './confirmation.ts';
import { textMail } from './text.ts';

/** The e-mails the booking service sends guests: each in the tenant's language, each once. */

/** What the confirmation e-mail needs besides the booking. */
export interface MailRequest {
  confirmation: Confirmation;
  /** The address and name the guest typed. */
  to: string;
  guestName: string;
  /** Absolute address of the booking's private manage page. */
  manageUrl: string;
  /** The site the guest booked on (its address), named in the e-mail's footer. */
  site: string;
}

/**
 * The confirmation e-mail, once per booking, from the server that made it; false when none was
 * sent (no mailer, sent before, made elsewhere, or refused: a later retry here may send it).
 */
export async function mailConfirmation(core: ServiceCore, request: MailRequest): Promise<boolean> {
  const { mailer: send, attempts, tenant } = core;
  const { reference } = request.confirmation;
  // Sent by the server that made the booking: a racing submit answered elsewhere never mails.
  if (!send || !attempts.madeHere(reference)) return false;
  const claim = mailClaim(reference);
  if (!(await attempts.claim(claim))) return false;
  try {
    const place = await core.property(request.confirmation.propertyId).catch(() => undefined);
    const mail = confirmationMail(
      { ...request, property: place, contact: core.lodging.contact },
      i18nFor(tenant),
    );
    await send({ ...mail, to: request.to, fromName: tenant.name });
    return true;
  } catch (error) {
    await attempts.release(claim);
    logError('booking.mail_failed', core.context('mail'), error);
    return false;
  }
}

/** Sends the private link of the booking `findStay` found to the address it was made with. */
export async function mailLink(
  core: ServiceCore,
  request: Omit<MailRequest, 'confirmation'> & { booking: Booking },
): Promise<boolean> {
  const send = core.mailer;
  if (!send) return false;
  const { t } = i18nFor(core.tenant);
  const reference = request.booking.reference ?? String(request.booking.id);
  const { text, html } = textMail(
    request.guestName && t('mail.greeting', { name: request.guestName }),
    [
      t('mail.findText', { reference }),
      `${t('mail.manage')}: ${request.manageUrl}`,
      t('manage.private'),
    ],
    t('mail.footer', { site: request.site }),
  );
  await send({
    to: request.to,
    fromName: core.tenant.name,
    subject: t('mail.findSubject', { reference }),
    text,
    html,
  });
  return true;
}

/**
 * Where a booking's e-mails go: its guest record's address, or for a booking under the
 * online-requests record, the address its notes name (see service/guests.ts). Undefined when neither.
 */
async function guestOf(
  core: ServiceCore,
  booking: Booking,
): Promise<{ email: string; name: string } | undefined> {
  if (booking.guest_id == null) return undefined;
  const guest = await core.lodgingApi().getGuest(String(booking.guest_id), { fresh: true });
  const email = normalizeEmail(guest.email ?? '');
  if (email === core.onlineRequestsEmail) {
    const named = /<([^<>\s]+@[^<>\s]+)>/.exec(booking.notes ?? '')?.[1];
    return named ? { email: named, name: '' } : undefined;
  }
  const name = `${guest.first_name} ${guest.last_name}`.trim();
  return email ? { email: guest.email ?? email, name } : undefined;
}

/**
 * The cancellation e-mail, in the tenant's language, once per booking (a repeated cancel, a
 * reload or another server finds it claimed), to the address the booking was made with.
 */
export async function mailCancellation(
  core: ServiceCore,
  request: {
    booking: Booking;
    place: PropertySummary;
    /** Absolute addresses on the tenant's mail origin: its booking page and its home. */
    bookUrl: string;
    site: string;
  },
): Promise<boolean> {
  const { mailer: send, attempts, tenant } = core;
  if (!send) return false;
  const { booking, place } = request;
  const reference = booking.reference ?? String(booking.id);
  const claim = `cancel-mail:${reference}`;
  if (!(await attempts.claim(claim))) return false;
  try {
    const guest = await guestOf(core, booking);
    if (!guest) return false;
    const { t, locale } = i18nFor(tenant);
    const contact = contactLine(core.lodging.contact);
    const dates = `${stayDate(booking.check_in, locale)} – ${stayDate(booking.check_out, locale)}`;
    const { text, html } = textMail(
      guest.name && t('mail.greeting', { name: guest.name }),
      [
        t('manage.cancelMailText', { reference, place: place.name, dates }),
        '',
        t('manage.cancelMailAgain', { url: request.bookUrl }),
        ...(contact ? [t('manage.contact', { contact })] : []),
      ],
      t('mail.footer', { site: request.site }),
    );
    const subject = t('manage.cancelMailSubject', { reference });
    await send({ to: guest.email, fromName: tenant.name, subject, text, html });
    return true;
  } catch (error) {
    await attempts.release(claim);
    logError('booking.cancel_mail_failed', core.context('mail'), error);
    return false;
  }
}
