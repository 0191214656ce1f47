import { escapeHtml, escapeRegExp } from '../../content/escape.ts';

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
 * A short e-mail from its lines, after a greeting when there is a name and before the site's
 * signature: the plain-text part as they are, the HTML part one paragraph each, in which the
 * addresses the site wrote (`links`: the manage link, the tenant's own pages) become links, and
 * nothing else does.
 */
export function textMail(
  greeting: string,
  body: readonly string[],
  footer: string,
  links: readonly string[] = [],
): { text: string; html: string } {
  const lines = [...(greeting ? [greeting, ''] : []), ...body, '', '-- ', footer];
  const text = lines.join('\n');
  // One pass, longest first: the manage link is linked whole, not the site's address inside it.
  const own = [...new Set(links)]
    .filter(Boolean)
    .map(escapeHtml)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  const linkable = own.length ? new RegExp(own.join('|'), 'g') : null;
  const html = lines
    .filter((line) => line !== '')
    .map((line) => {
      const escaped = escapeHtml(line);
      const linked = linkable
        ? escaped.replace(linkable, (url) => `<a href="${url}">${url}</a>`)
        : escaped;
      return `<p>${linked}</p>`;
    })
    .join('\n');
  return { text, html };
}
