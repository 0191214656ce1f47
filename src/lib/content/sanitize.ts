import sanitizeHtml from 'sanitize-html';

export interface SanitizeOptions {
  /** Hosts whose iframes are kept (exact host or a subdomain of it). */
  iframeHosts?: readonly string[] | undefined;
  /** The site's own host: links to it stay without `rel`. */
  siteHost?: string | undefined;
  /**
   * The upstream's address: relative `src`/`href` values are resolved against its origin. Without it
   * they are dropped (a relative image would otherwise make every browser ask this site for it).
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
export function isEmbeddable(url: URL, hosts: readonly string[]): boolean {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  const host = url.hostname.toLowerCase();
  const listed = hosts.some((allowed) => {
    const name = allowed.toLowerCase();
    return host === name || host.endsWith(`.${name}`);
  });
  return listed && (EMBED_PATHS[host]?.test(url.pathname) ?? true);
}

/**
 * A `src`/`href` from upstream HTML: absolute URLs and `#fragments` as they are, relative ones
 * resolved against the upstream's origin, or `undefined` (dropped) when there is no base.
 */
export function resolveUpstreamUrl(value: string, baseUrl: string | undefined): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) {
    return value;
  }
  if (trimmed.startsWith('//')) return undefined; // protocol-relative: never kept
  if (!baseUrl) return undefined;
  try {
    return new URL(trimmed, `${new URL(baseUrl).origin}/`).toString();
  } catch {
    return undefined;
  }
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const TEXT = [
  'p',
  'br',
  'hr',
  'em',
  'strong',
  'b',
  'i',
  'u',
  's',
  'small',
  'sub',
  'sup',
  'mark',
  'abbr',
  'cite',
  'q',
  'span',
  'div',
];
const LISTS = ['ul', 'ol', 'li', 'dl', 'dt', 'dd'];
const TABLES = ['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'colgroup', 'col'];
const BLOCKS = ['blockquote', 'code', 'pre', 'figure', 'figcaption', 'a', 'img', 'iframe'];

function hostAllowed(src: string, hosts: readonly string[]): boolean {
  try {
    return isEmbeddable(new URL(src), hosts);
  } catch {
    return false;
  }
}

/** `attribs` with `name` resolved by `resolveUpstreamUrl`, or removed. */
function withResolved(
  attribs: Record<string, string>,
  name: string,
  baseUrl: string | undefined,
): Record<string, string> {
  const value = attribs[name];
  if (value === undefined) return attribs;
  const next = { ...attribs };
  const resolved = resolveUpstreamUrl(value, baseUrl);
  if (resolved === undefined) delete next[name];
  else next[name] = resolved;
  return next;
}

function isExternal(href: string, siteHost: string | undefined): boolean {
  try {
    const url = new URL(href);
    // Only web links leave the site; mailto and (soon dropped) other schemes get no rel.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return siteHost === undefined || url.hostname !== siteHost;
  } catch {
    return false;
  }
}

/**
 * Cleans post HTML from the upstream before it is cached and rendered with `set:html`: an
 * allow-list of tags and attributes, http/https/mailto links only, external links get
 * `rel="noopener noreferrer"`, images lazy, iframes only from `iframeHosts` (player paths), relative
 * URLs resolved against the upstream (`baseUrl`) or dropped.
 */
export function sanitizePostHtml(html: string, options: SanitizeOptions = {}): string {
  const iframeHosts = options.iframeHosts ?? DEFAULT_IFRAME_HOSTS;
  return sanitizeHtml(html, {
    allowedTags: [...HEADINGS, ...TEXT, ...LISTS, ...TABLES, ...BLOCKS],
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'target'],
      img: ['src', 'alt', 'width', 'height', 'loading', 'title'],
      iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'loading'],
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
      (frame.tag === 'iframe' && !hostAllowed(frame.attribs['src'] ?? '', iframeHosts)) ||
      (frame.tag === 'img' && !frame.attribs['src']),
    transformTags: {
      a: (tagName, attribs) => {
        const next = withResolved(attribs, 'href', options.baseUrl);
        const href = next['href'];
        delete next['rel'];
        if (href !== undefined && isExternal(href, options.siteHost)) {
          next['rel'] = 'noopener noreferrer';
        }
        return { tagName, attribs: next };
      },
      img: (tagName, attribs) => ({
        tagName,
        attribs: { ...withResolved(attribs, 'src', options.baseUrl), loading: 'lazy' },
      }),
      iframe: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
    },
  });
}
