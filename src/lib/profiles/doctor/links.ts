/**
 * Links an API gives itself: an index at its base address (`{ "links": { "articles": "/articles" } }`,
 * HAL `_links`, a plain list of URLs) and the addresses inside its records (`url`, `self`). The doctor
 * tries them before its own spellings: an API that says where things are is not guessed at.
 */

/** The path below `baseUrl` of a link (absolute, or starting with `/`), or undefined. */
export function pathBelow(link: string, baseUrl: string): string | undefined {
  let url: URL;
  let base: URL;
  try {
    base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    url = new URL(link, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/$/, '');
  let path = url.pathname;
  // A link written relative to the host (`/api/v1/articles`) or to the base (`/articles`).
  if (prefix && path.startsWith(`${prefix}/`)) path = path.slice(prefix.length);
  else if (/^https?:/.test(link)) return undefined;
  path = path.replace(/\/+$/, '');
  return path.length > 1 && !/\.(png|jpe?g|gif|svg|webp|avif|css|js|html?)$/i.test(path)
    ? path
    : undefined;
}

/** Every string in `body` (at any depth) that is a link below `baseUrl`, as paths, in order. */
export function linksIn(body: unknown, baseUrl: string, depth = 0): string[] {
  if (depth > 6) return [];
  if (typeof body === 'string') {
    const path = /^(https?:\/\/|\/)/.test(body) ? pathBelow(body, baseUrl) : undefined;
    return path ? [path] : [];
  }
  const values = Array.isArray(body)
    ? body
    : body && typeof body === 'object'
      ? Object.values(body)
      : [];
  return [...new Set(values.flatMap((value) => linksIn(value, baseUrl, depth + 1)))];
}

/**
 * Path templates from an item's own links, the segment that is its `key` (slug or id) made `{param}`:
 * its own address ends with the key (`/articles/harbour-reopens` → `/articles/{slug}`), a nested
 * read's goes on past it (`/quays/7/berths` → `/quays/{propertyId}/berths`).
 */
export function linkTemplates(
  item: unknown,
  key: string,
  param: string,
  baseUrl: string,
): { own?: string | undefined; nested: string[] } {
  const encoded = encodeURIComponent(key);
  const own: string[] = [];
  const nested: string[] = [];
  for (const path of linksIn(item, baseUrl)) {
    const segments = path.split('/');
    const at = segments.findIndex((segment) => segment === encoded || segment === key);
    if (at <= 0) continue;
    (at === segments.length - 1 ? own : nested).push(segments.with(at, `{${param}}`).join('/'));
  }
  return { own: own[0], nested };
}
