import sanitizeHtml from 'sanitize-html';

export interface SanitizeOptions {
  /** Hosts whose iframes are kept (exact host or a subdomain of it). */
  iframeHosts?: readonly string[] | undefined;
  /**
   * The upstream's address: relative `src`/`href`/`srcset` values are resolved against its origin.
   * Without it they are dropped (a relative image would otherwise make every browser ask this site
   * for it), except links to `/posts/<slug>`, which are this site's own post route.
   */
  baseUrl?: string | undefined;
}

/** Video players allowed in posts and stream embeds by default: each provider's standard embed hosts. */
export const DEFAULT_IFRAME_HOSTS: readonly string[] = [
  'www.youtube-nocookie.com',
  'youtube-nocookie.com',
  'www.youtube.com',
  'youtube.com',
  'player.vimeo.com',
];

/** Hosts that serve more than players: only these paths may be framed (a watch page refuses frames). */
const EMBED_PATHS: Readonly<Record<string, RegExp>> = {
  'www.youtube.com': /^\/embed\//,
  'youtube.com': /^\/embed\//,
};

/** An http(s) URL on one of `hosts` (or a subdomain), on a player path where the host needs one. */
export function isEmbeddable(url: URL | null, hosts: readonly string[]): boolean {
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') return false;
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const listed = hosts.some((allowed) => {
    // `host:port` allows that port only; a bare host (and its subdomains) any port.
    const [name = '', only] = allowed.toLowerCase().split(':');
    if (only !== undefined && only !== port) return false;
    return host === name || host.endsWith(`.${name}`);
  });
  return listed && (EMBED_PATHS[host]?.test(url.pathname) ?? true);
}

/**
 * A `src`/`href` from upstream HTML: absolute URLs and `#fragments` as they are, relative and
 * protocol-relative ones (`/storage/x.jpg`, `x.jpg`, `//cdn/x.jpg`) resolved against the upstream's
 * origin (and scheme), or `undefined` (dropped) when there is no base. Schemes are judged afterwards.
 */
function resolveUpstreamUrl(value: string, baseUrl: string | undefined): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) {
    return value;
  }
  const base = baseUrl && URL.parse(baseUrl);
  return (base && URL.parse(trimmed, `${base.origin}/`)?.toString()) || undefined;
}

/** `/posts/<slug>` (query and fragment allowed): a path of this site's own post route. */
const OWN_POST_PATH = /^\/posts\/[^/?#\\]+\/?(?:[?#].*)?$/;

/**
 * A link's `href`: a CMS path to `/posts/<slug>` stays a path, since this site serves the same
 * tenant's post at the same route (docs/api-assumptions.md); anything else as `resolveUpstreamUrl`.
 */
function resolveUpstreamLink(href: string, baseUrl: string | undefined): string | undefined {
  return OWN_POST_PATH.test(href.trim()) ? href.trim() : resolveUpstreamUrl(href, baseUrl);
}

/** A `srcset`'s candidates, split as browsers do: a URL ends at whitespace (or trailing commas). */
function srcsetCandidates(srcset: string): { url: string; descriptor: string }[] {
  const candidates: { url: string; descriptor: string }[] = [];
  let rest = srcset;
  for (;;) {
    rest = rest.replace(/^[\s,]+/, '');
    const url = /^\S+/.exec(rest)?.[0];
    if (url === undefined) return candidates;
    rest = rest.slice(url.length);
    if (url.endsWith(',')) {
      candidates.push({ url: url.replace(/,+$/, ''), descriptor: '' });
      continue;
    }
    const end = rest.indexOf(',');
    candidates.push({ url, descriptor: (end === -1 ? rest : rest.slice(0, end)).trim() });
    rest = end === -1 ? '' : rest.slice(end + 1);
  }
}

/** Each candidate of a `srcset` resolved like `src`; candidates that cannot be are left out. */
function resolveUpstreamSrcset(srcset: string, baseUrl: string | undefined): string | undefined {
  const resolved = srcsetCandidates(srcset).flatMap(({ url, descriptor }) => {
    const absolute = resolveUpstreamUrl(url, baseUrl);
    return absolute === undefined ? [] : [descriptor ? `${absolute} ${descriptor}` : absolute];
  });
  return resolved.length > 0 ? resolved.join(', ') : undefined;
}

const HEADINGS = 'h1 h2 h3 h4 h5 h6';
const TEXT = 'p br hr em strong b i u s small sub sup mark abbr cite q span div';
const LISTS = 'ul ol li dl dt dd';
const TABLES = 'table caption thead tbody tfoot tr th td colgroup col';
const BLOCKS = 'blockquote code pre figure figcaption a img iframe';

/** `attribs` with `name` resolved by `resolve`, or removed. */
function withResolved(
  attribs: Record<string, string>,
  name: string,
  resolve: (value: string) => string | undefined,
): Record<string, string> {
  const value = attribs[name];
  if (value === undefined) return attribs;
  const next = { ...attribs };
  const resolved = resolve(value);
  if (resolved === undefined) delete next[name];
  else next[name] = resolved;
  return next;
}

/** Only web links leave the page; mailto and (soon dropped) other schemes get no rel. */
const isWebLink = (href: string) => ['http:', 'https:'].includes(URL.parse(href)?.protocol ?? '');

/** `allowfullscreen` beside an `allow` that grants fullscreen only earns a console warning. */
function withoutRedundantFullscreen(attribs: Record<string, string>): Record<string, string> {
  if (!/(^|;)\s*fullscreen\b/.test(attribs['allow'] ?? '')) return attribs;
  const { allowfullscreen: _dropped, ...rest } = attribs;
  return rest;
}

/**
 * Cleans post HTML from the upstream before it is cached and rendered with `set:html`: an
 * allow-list of tags and attributes, http/https/mailto links only, external links get
 * `rel="noopener noreferrer"`, images lazy, iframes only from `iframeHosts` (player paths), relative
 * URLs (`srcset` too) resolved against the upstream (`baseUrl`) or dropped, `/posts/<slug>` links kept.
 */
export function sanitizePostHtml(html: string, options: SanitizeOptions = {}): string {
  const iframeHosts = options.iframeHosts ?? DEFAULT_IFRAME_HOSTS;
  const baseUrl = options.baseUrl;
  return sanitizeHtml(html, {
    allowedTags: [HEADINGS, TEXT, LISTS, TABLES, BLOCKS].join(' ').split(' '),
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'target'],
      img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'title'],
      iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'loading'],
      table: ['tabindex'],
      th: ['colspan', 'rowspan', 'scope'],
      td: ['colspan', 'rowspan'],
      col: ['span'],
      colgroup: ['span'],
      ol: ['start', 'reversed', 'type'],
      abbr: ['title'],
      code: ['class'],
      pre: ['class'],
    },
    allowedClasses: { code: [/^language-[\w-]+$/], pre: [/^language-[\w-]+$/] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'], iframe: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // Dropped with their content, not just unwrapped.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template'],
    exclusiveFilter: (frame) =>
      (frame.tag === 'iframe' &&
        !isEmbeddable(URL.parse(frame.attribs['src'] ?? ''), iframeHosts)) ||
      (frame.tag === 'img' && !frame.attribs['src']),
    transformTags: {
      a: (tagName, attribs) => {
        const next = withResolved(attribs, 'href', (href) => resolveUpstreamLink(href, baseUrl));
        const href = next['href'];
        delete next['rel'];
        if (href !== undefined && isWebLink(href)) next['rel'] = 'noopener noreferrer';
        return { tagName, attribs: next };
      },
      img: (tagName, attribs) => {
        const withSrc = withResolved(attribs, 'src', (src) => resolveUpstreamUrl(src, baseUrl));
        const next = withResolved(withSrc, 'srcset', (set) => resolveUpstreamSrcset(set, baseUrl));
        return { tagName, attribs: { ...next, loading: 'lazy' } };
      },
      // A wide table scrolls sideways in its own box (PostArticle): the keyboard must reach it too.
      table: (tagName) => ({ tagName, attribs: { tabindex: '0' } }),
      iframe: (tagName, attribs) => ({
        tagName,
        attribs: {
          ...withoutRedundantFullscreen(
            withResolved(attribs, 'src', (src) => resolveUpstreamUrl(src, baseUrl)),
          ),
          loading: 'lazy',
        },
      }),
    },
  });
}
