import { escapeHtml, escapeRegExp } from '../../content/escape.ts';
import type { I18n } from '../../i18n/index.ts';

/** How long a name the booker typed may be in an e-mail (a greeting, not a letter). */
export const MAX_MAIL_NAME = 80;

// Control characters (CR/LF among them), line and paragraph separators, and the direction marks,
// embeddings, overrides and isolates that make text read other than it is stored.
const UNSAFE = /[\p{Cc}\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
// Characters that show nothing and that a host name drops (`evil\u00AD.example` is evil.example);
// the joiners some scripts' names need are kept (a host cannot carry them).
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}--[\u200C\u200D]]/gv;
// A scheme (`https://`, `ftp://`) and a dot inside a host name (`evil.example`, not `J.R.`), with
// the full stops a browser reads as one there (`evil。example`).
const SCHEME = /\b[a-z][a-z0-9+.-]*:\/\//gi;
const HOST_DOT = /(?<=[\p{L}\p{N}-])[.\u3002\uFF0E\uFF61](?=[\p{L}\p{N}-]*\p{L}{2})/gu;

/**
 * Text the booker chose (a name), as an e-mail may carry it: one line, no direction tricks, at most
 * `max` characters, and no address a mail client would make a link of: the scheme dropped and the
 * host's dots written `[.]` (as security mail defangs addresses: `evil[.]example/verify`), since
 * Gmail, Outlook and Apple Mail link a bare `evil.example` in both the text and the HTML part.
 */
export function bookerText(text: string, max = MAX_MAIL_NAME): string {
  const line = text.replace(UNSAFE, ' ').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
  const chars = [...line];
  const kept = chars.slice(0, max - 1).join('');
  const cut = chars.length > max ? `${kept.trimEnd()}…` : line;
  return cut.replace(SCHEME, '').replace(HOST_DOT, '[.]');
}

/**
 * The one layout of the guest e-mails: a greeting when there is a `name`, the mail's own lines, and
 * the site's signature. The HTML part is the plain text, a paragraph per block, in which the
 * addresses the site wrote (`links` and `site`) become links, and nothing else does.
 */
export function guestMail(
  t: I18n['t'],
  mail: { name: string; body: readonly string[]; site: string; links: readonly string[] },
): { text: string; html: string } {
  const greeting = mail.name ? [t('mail.greeting', { name: bookerText(mail.name) }), ''] : [];
  const footer = t('mail.footer', { site: mail.site });
  const text = [...greeting, ...mail.body, '', '-- ', footer].join('\n');
  // One pass, longest first: the manage link is linked whole, not the site's address inside it.
  const own = [...new Set([...mail.links, mail.site])]
    .map(escapeHtml)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  const linkable = new RegExp(own.join('|'), 'g');
  const line = (raw: string) =>
    escapeHtml(raw).replace(linkable, (url) => `<a href="${url}">${url}</a>`);
  const blocks = text
    .split(/\n{2,}/)
    .map((block) => `<p>${block.split('\n').map(line).join('<br>')}</p>`);
  return { text, html: blocks.join('\n') };
}
