import type { I18n } from '../../i18n/index.ts';
import { contactLine } from '../domain/contact.ts';
import type { BookingContact, Confirmation, PropertySummary } from '../domain/types.ts';
import { confirmationView } from '../manage/view.ts';
import { escapeHtml } from './text.ts';

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

/**
 * The booking confirmation as an e-mail in the tenant's language: what the hotel said (a request
 * is not a confirmed booking), the stay, the private link, and whom to ask. Plain text and HTML.
 */
export function confirmationMail(facts: MailFacts, i18n: Pick<I18n, 't' | 'locale'>) {
  const { t } = i18n;
  const { confirmation: c } = facts;
  const { heading, text: said, rows } = confirmationView(c, facts.property, i18n);
  const contact = contactLine(facts.contact);
  const lines = {
    greeting: t('mail.greeting', { name: facts.guestName }),
    heading,
    text: said,
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
    `<p>${escapeHtml(lines.greeting)}</p>`,
    `<h1>${escapeHtml(lines.heading)}</h1>`,
    `<p>${escapeHtml(lines.text)}</p>`,
    '<table>',
    ...rows.map(
      ([term, value]) =>
        `<tr><th align="left">${escapeHtml(term)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    `<p><a href="${escapeHtml(facts.manageUrl)}">${escapeHtml(lines.manage)}</a><br>${escapeHtml(lines.private)}</p>`,
    ...(lines.contact ? [`<p>${escapeHtml(lines.contact)}</p>`] : []),
    `<p><small>${escapeHtml(lines.footer)}</small></p>`,
  ].join('\n');
  return {
    subject: t('mail.subject', { reference: c.reference, place: c.propertyName }),
    text,
    html,
  };
}
