/**
 * The methods a page answers: GET and HEAD, and POST where the page takes a form (its Astro Actions
 * post to the page itself). Anything else (DELETE, PUT, OPTIONS, a POST to a page without a form)
 * is a 405 naming these, never the page under its public Cache-Control.
 */
const FORM_PAGES: ReadonlySet<string> = new Set([
  '/posts/[slug]',
  '/login',
  '/register',
  '/logout',
  '/stay',
  '/stay/manage',
  '/stay/manage/[token]',
  '/embed/booking',
]);

/**
 * What `routePattern` takes when it is a page, `null` when it answers methods itself: an endpoint
 * (a file name such as `rss.xml`, `/api/…`, Astro's `/_actions`, `/_image`) or an error page (an
 * unknown address stays a 404).
 */
export function pageMethods(routePattern: string): readonly string[] | null {
  if (/^\/(api|_)|\.[^/]*$|^\/(400|404|421|500|503)$/.test(routePattern)) return null;
  return FORM_PAGES.has(routePattern) ? ['GET', 'HEAD', 'POST'] : ['GET', 'HEAD'];
}

/** The `Allow` header's value when `method` is not one the route takes, else `null`. */
export function refusedMethod(method: string, routePattern: string): string | null {
  const allowed = pageMethods(routePattern);
  return allowed && !allowed.includes(method) ? allowed.join(', ') : null;
}
