/**
 * A GET form's `action` and hidden fields for a site link (`locals.href(path)`): the browser
 * replaces the action's query with the form's fields, so what `href` put there (`?tenant=` in
 * preview) goes along as hidden fields instead.
 */
export function getFormTarget(link: string): { action: string; hidden: [string, string][] } {
  const url = new URL(link, 'http://site.invalid');
  return { action: url.pathname, hidden: [...url.searchParams] };
}
