import type { Booking } from '../../lodging/schema.ts';
import { i18nFor } from '../../i18n/index.ts';
import { stayDate } from '../../i18n/format.ts';
import { logError } from '../../log/log.ts';
import { contactLine } from '../domain/contact.ts';
import { stayZone } from '../domain/dates.ts';
import { stayBegun } from '../domain/rules.ts';
import { normalizeEmail } from '../domain/email.ts';
import { isEmailAddress } from '../../forms/email.ts';
import { mayMail, unspendMail } from '../api/limits.ts';
import { manageView } from '../manage/view.ts';
import type { ServiceCore } from '../service/core.ts';
import { notedEmail } from '../service/guests.ts';
import { referenceOf, type Confirmation, type PropertySummary } from '../service/lodging-shapes.ts';
import { mailClaim } from '../service/idempotency.ts';
import type { Mail } from './mailer.ts';
import { escapeHtml } from '../../content/escape.ts';
import { bookerText, textMail } from './text.ts';

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
 * Sends the mail `write` makes (from the tenant's name, replies to its lodging contact), once per
 * `claim` when there is one (across instances with Redis); false when none went out. A refused
 * send gives the claim and the address's mail (`mayMail`, spent by `write`) back, so a later
 * retry may send it.
 */
async function sendMail(
  core: ServiceCore,
  claim: string | null,
  event: string,
  write: () => Promise<Omit<Mail, 'fromName' | 'replyTo'> | undefined>,
): Promise<boolean> {
  const { mailer: send, attempts } = core;
  if (!send || (claim !== null && !(await attempts.claim(claim)))) return false;
  let mail: Omit<Mail, 'fromName' | 'replyTo'> | undefined;
  try {
    mail = await write();
    if (!mail) return false;
    await send({ ...mail, fromName: core.tenant.name, replyTo: core.lodging.contact?.email });
    return true;
  } catch (error) {
    if (claim !== null) await attempts.release(claim);
    if (mail) await unspendMail(core.tenant.id, mail.to);
    logError(event, core.context('mail'), error);
    return false;
  }
}

/**
 * The booking confirmation, once per booking, from the server that made it (a racing submit
 * answered elsewhere never mails): what the hotel said (a request is not a confirmed booking),
 * the stay, the private link, and whom to ask. Plain text and HTML.
 */
export function mailConfirmation(core: ServiceCore, request: MailRequest): Promise<boolean> {
  const { confirmation: c, manageUrl } = request;
  if (!core.attempts.madeHere(c.reference)) return Promise.resolve(false);
  return sendMail(core, mailClaim(c.reference), 'booking.mail_failed', async () => {
    if (!(await mayMail(core.tenant.id, request.to))) return undefined;
    const i18n = i18nFor(core.tenant);
    const { t } = i18n;
    const place = await core.property(c.propertyId).catch(() => undefined);
    const begun = stayBegun(c.checkIn, stayZone(place, core.tenant));
    const view = manageView({ ...c, property: place, begun }, i18n);
    const { heading, text: said, rows } = view;
    const contactText = contactLine(core.lodging.contact);
    const greeting = t('mail.greeting', { name: bookerText(request.guestName) });
    // A stay that can no longer be cancelled online (its day has begun) is only seen there.
    const manage = t(view.cancellable ? 'mail.manage' : 'mail.see');
    const secret = t('manage.private');
    const contact = contactText ? t('manage.contact', { contact: contactText }) : '';
    const footer = t('mail.footer', { site: request.site });
    const { text } = textMail(
      greeting,
      [
        `${heading}. ${said}`,
        '',
        ...rows.map(([term, value]) => `${term}: ${value}`),
        '',
        `${manage}: ${manageUrl}`,
        secret,
        ...(contact ? ['', contact] : []),
      ],
      footer,
    );
    const html = [
      `<p>${escapeHtml(greeting)}</p>`,
      `<h1>${escapeHtml(heading)}</h1>`,
      `<p>${escapeHtml(said)}</p>`,
      '<table>',
      ...rows.map(
        ([term, value]) =>
          `<tr><th align="left">${escapeHtml(term)}</th><td>${escapeHtml(value)}</td></tr>`,
      ),
      '</table>',
      `<p><a href="${escapeHtml(manageUrl)}">${escapeHtml(manage)}</a><br>${escapeHtml(secret)}</p>`,
      ...(contact ? [`<p>${escapeHtml(contact)}</p>`] : []),
      `<p><small>${escapeHtml(footer)}</small></p>`,
    ].join('\n');
    const subject = t('mail.subject', { reference: c.reference, place: c.propertyName });
    return { to: request.to, subject, text, html };
  });
}

/**
 * Sends the private link of the booking `findStay` found to the address it was made with (as
 * recorded, not as typed to find it).
 */
export function mailLink(
  core: ServiceCore,
  request: Omit<MailRequest, 'confirmation' | 'to'> & { booking: Booking },
): Promise<boolean> {
  const reference = referenceOf(request.booking);
  return sendMail(core, null, 'booking.find_failed', async () => {
    const guest = await guestOf(core, request.booking);
    if (!guest) return undefined;
    const { t } = i18nFor(core.tenant);
    const { text, html } = textMail(
      request.guestName && t('mail.greeting', { name: bookerText(request.guestName) }),
      [
        t('mail.findText', { reference }),
        `${t('mail.manage')}: ${request.manageUrl}`,
        t('manage.private'),
      ],
      t('mail.footer', { site: request.site }),
      [request.manageUrl, request.site],
    );
    const subject = t('mail.findSubject', { reference });
    return { to: guest.email, subject, text, html };
  });
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
    const named = notedEmail(booking.notes);
    return named ? { email: named, name: '' } : undefined;
  }
  const name = `${guest.first_name} ${guest.last_name}`.trim();
  // The API's record is not ours: an address a mail library would read as a list or a header
  // (`a@x\r\nBcc: b@y`) is mailed nothing.
  const address = guest.email ?? email;
  return isEmailAddress(address) ? { email: address, name } : undefined;
}

/**
 * The cancellation e-mail, once per booking (a repeated cancel, a reload or another server finds
 * it claimed), to the address the booking was made with.
 */
export function mailCancellation(
  core: ServiceCore,
  request: {
    booking: Booking;
    place: PropertySummary;
    /** Absolute addresses on the tenant's mail origin: its booking page and its home. */
    bookUrl: string;
    site: string;
  },
): Promise<boolean> {
  const { booking, place } = request;
  const reference = referenceOf(booking);
  return sendMail(core, `cancel-mail:${reference}`, 'booking.cancel_mail_failed', async () => {
    const guest = await guestOf(core, booking);
    if (!guest || !(await mayMail(core.tenant.id, guest.email))) return undefined;
    const { t, locale } = i18nFor(core.tenant);
    const contact = contactLine(core.lodging.contact);
    const dates = `${stayDate(booking.check_in, locale)} – ${stayDate(booking.check_out, locale)}`;
    const { text, html } = textMail(
      guest.name && t('mail.greeting', { name: bookerText(guest.name) }),
      [
        t('manage.cancelMailText', { reference, place: place.name, dates }),
        '',
        t('manage.cancelMailAgain', { url: request.bookUrl }),
        ...(contact ? [t('manage.contact', { contact })] : []),
      ],
      t('mail.footer', { site: request.site }),
      [request.bookUrl, request.site],
    );
    return { to: guest.email, subject: t('manage.cancelMailSubject', { reference }), text, html };
  });
}
