/**
 * Who may frame a response. The booking embed's pages (`/embed/…`) set their `frame-ancestors`
 * themselves ('self' and the tenant's partners: src/lib/booking/embed/settings.ts). An answer to a
 * request made to them that is another page (the 413, 421, 400 or 404 page a post inside the frame
 * is rewritten to) gets the same `frame-ancestors`, so the frame shows it instead of the browser's
 * blocked-frame error (`embedAncestors`, set when the request was to `/embed/…`). Every other
 * response: nobody (`X-Frame-Options: DENY`).
 */
export function setFraming(
  headers: Headers,
  embedAncestors: string | undefined,
  pathname: string,
): void {
  if (embedAncestors === undefined) {
    if (!pathname.startsWith('/embed/')) headers.set('X-Frame-Options', 'DENY');
    return;
  }
  const policy = headers.get('Content-Security-Policy');
  if (policy && /(^|;)\s*frame-ancestors\s/i.test(policy)) return;
  const directive = `frame-ancestors ${embedAncestors}`;
  // Astro ends its policy with `;`.
  const kept = policy?.replace(/[\s;]+$/, '');
  headers.set('Content-Security-Policy', kept ? `${kept}; ${directive}` : directive);
}
