import type { I18n } from '../../i18n/index.ts';
import { widgetSay } from '../../i18n/widget.ts';
import { contactLine } from '../domain/contact.ts';
import type { BookingContact, Confirmation, PropertySummary } from '../domain/types.ts';
import { STATUS_TEXT, stayRows } from '../steps/summary-rows.ts';

/** What a guest's e-mail needs beyond the confirmation: who they are and where their link is. */
export interface MailFacts {
  confirmation: Confirmation;
  property: PropertySummary | undefined;
  guestName: string;
  /** The absolute address of the private manage page. */
  manageUrl: string;
  site: string;
  contact: BookingContact | undefined;
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The booking confirmation as an e-mail in the tenant's language: what the hotel said (a request
 * is not a confirmed booking), the stay, the private link, and whom to ask. Plain text and HTML.
 */
export function confirmationMail(facts: MailFacts, i18n: Pick<I18n, 't' | 'locale'>) {
  const { t, locale } = i18n;
  const say = widgetSay(i18n);
  const { confirmation: c, property } = facts;
  const status = STATUS_TEXT[c.statusKind];
  const rows = stayRows(
    {
      ...c,
      kind: c.statusKind,
      place: c.propertyName,
      address: [property?.address, property?.city].filter(Boolean).join(', '),
      room: c.roomName,
      checkInTime: property?.checkInTime,
      checkOutTime: property?.checkOutTime,
      total: c.totalPrice,
    },
    say,
    locale,
  );
  const contact = contactLine(facts.contact);
  const lines = {
    greeting: t('mail.greeting', { name: facts.guestName }),
    heading: say(status.heading),
    text: say(status.text, { status: c.status }),
    manage: t('mail.manage'),
    private: t('manage.private'),
    contact: contact ? t('manage.contact', { contact }) : '',
    footer: t('mail.footer', { site: facts.site }),
  };
  const text = [
    lines.greeting,
    '',
    `${lines.heading}. ${lines.text}`,
    '',
    ...rows.map(([term, value]) => `${term}: ${value}`),
    '',
    `${lines.manage}: ${facts.manageUrl}`,
    lines.private,
    ...(lines.contact ? ['', lines.contact] : []),
    '',
    '-- ',
    lines.footer,
  ].join('\n');
  const html = [
    `<p>${escape(lines.greeting)}</p>`,
    `<h1>${escape(lines.heading)}</h1>`,
    `<p>${escape(lines.text)}</p>`,
    '<table>',
    ...rows.map(
      ([term, value]) => `<tr><th align="left">${escape(term)}</th><td>${escape(value)}</td></tr>`,
    ),
    '</table>',
    `<p><a href="${escape(facts.manageUrl)}">${escape(lines.manage)}</a><br>${escape(lines.private)}</p>`,
    ...(lines.contact ? [`<p>${escape(lines.contact)}</p>`] : []),
    `<p><small>${escape(lines.footer)}</small></p>`,
  ].join('\n');
  return {
    subject: t('mail.subject', { reference: c.reference, place: c.propertyName }),
    text,
    html,
  };
}
