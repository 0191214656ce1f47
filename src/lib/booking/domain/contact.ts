import type { Tenant } from '../../tenants/schema.ts';

/** How to book instead when booking is not available online (from the tenant's `lodging.contact`). */
export type BookingContact = NonNullable<NonNullable<Tenant['lodging']>['contact']>;

/** The tenant's contact as one line: `+44 20 7946 0000 · rooms@example.com`, or '' when none is set. */
export function contactLine(contact: BookingContact | undefined): string {
  return [contact?.phone, contact?.email, contact?.url].filter(Boolean).join(' · ');
}

/** The parts of `contactLine`, each with the address that calls, writes to or opens it ('' for none). */
export function contactLinks(contact: BookingContact | undefined) {
  const links: { text: string; href: string }[] = [];
  const phone = contact?.phone?.trim();
  // tel: takes digits and a leading +; spaces, dots, dashes and brackets are what people type.
  if (phone) links.push({ text: phone, href: `tel:${phone.replace(/[^\d+]/g, '')}` });
  const email = contact?.email?.trim();
  if (email) links.push({ text: email, href: `mailto:${email}` });
  const url = contact?.url?.trim();
  if (url) links.push({ text: url, href: /^https?:\/\//i.test(url) ? url : '' });
  return links;
}

/**
 * `text` cut around the contact line it contains (a message that names the hotel's contact), so a
 * page can put links in its place: `[before, after]`, or null when the line is not in it.
 */
export function aroundContact(
  text: string,
  contact: BookingContact | undefined,
): [string, string] | null {
  const line = contactLine(contact);
  const at = line ? text.indexOf(line) : -1;
  return at < 0 ? null : [text.slice(0, at), text.slice(at + line.length)];
}
