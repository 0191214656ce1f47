import sanitizeHtml from 'sanitize-html';

export interface SanitizeOptions {
  /** Hosts whose iframes are kept (exact host or a subdomain of it). */
  iframeHosts?: readonly string[] | undefined;
  /** The site's own host: links to it stay without `rel`. */
  siteHost?: string | undefined;
}

/** Video players allowed in posts by default. */
export const DEFAULT_IFRAME_HOSTS: readonly string[] = [
  'www.youtube-nocookie.com',
  'youtube-nocookie.com',
  'player.vimeo.com',
];

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
    const url = new URL(src);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    return hosts.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`));
  } catch {
    return false;
  }
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
 * `rel="noopener noreferrer"`, images lazy, iframes only from `iframeHosts`.
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
        const href = attribs['href'];
        const next: Record<string, string> = { ...attribs };
        delete next['rel'];
        if (href !== undefined && isExternal(href, options.siteHost)) {
          next['rel'] = 'noopener noreferrer';
        }
        return { tagName, attribs: next };
      },
      img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
      iframe: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
    },
  });
}
