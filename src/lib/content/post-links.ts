import { escapeHtml, unescapeHtml } from './escape.ts';

/**
 * An `<a>`'s link to this site's post route, as `sanitizePostHtml` writes it: text never holds a raw
 * `<` and attribute values never a raw `>` or `"`, so this cannot match outside a tag.
 */
const OWN_POST_LINK = /(<a\s[^>]*?\bhref=")(\/posts\/[^"]*)"/g;

/**
 * Cleaned post HTML with its `/posts/<slug>` links built by the request's `href` (the tenant's path
 * prefix or preview query), so they stay on this tenant however it was reached.
 */
export function withSiteLinks(html: string, href: (path: string) => string): string {
  return html.replace(
    OWN_POST_LINK,
    (_link, start: string, path: string) => `${start}${escapeHtml(href(unescapeHtml(path)))}"`,
  );
}
