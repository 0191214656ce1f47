import { XMLParser } from 'fast-xml-parser';

/**
 * The W3C feed validator's rules for what the site writes (issue 38): RSS `<author>` only as an
 * e-mail address, every prefixed element in a declared namespace (`dc:creator` in Dublin Core),
 * `atom:link rel="self"` naming the feed's own absolute address, RFC-822 dates, and a `guid` that
 * is a permanent link exactly when it says so.
 */
const NAMESPACES: Record<string, string> = {
  atom: 'http://www.w3.org/2005/Atom',
  dc: 'http://purl.org/dc/elements/1.1/',
  content: 'http://purl.org/rss/1.0/modules/content/',
};
const RFC822 =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}(?::\d{2})? (?:GMT|UT|[+-]\d{4}|[ECMP][SD]T|Z)$/;
const EMAIL_AUTHOR = /^[^@\s()]+@[^@\s()]+\.[^@\s()]+(?: \([^()]+\))?$/;

export type Node = Record<string, unknown>;
export const list = (value: unknown): Node[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => v as Node);
export const text = (value: unknown): string => {
  const inner = typeof value === 'object' && value !== null ? (value as Node)['#text'] : value;
  return typeof inner === 'string' || typeof inner === 'number' ? String(inner) : '';
};

function prefixesIn(node: unknown, out = new Set<string>()): Set<string> {
  if (typeof node !== 'object' || node === null) return out;
  for (const [key, value] of Object.entries(node)) {
    const name = key.startsWith('@_') ? key.slice(2) : key;
    const prefix = /^([A-Za-z][\w.-]*):/.exec(name)?.[1];
    if (prefix && prefix !== 'xmlns' && prefix !== 'xml') out.add(prefix);
    for (const child of Array.isArray(value) ? value : [value]) prefixesIn(child, out);
  }
  return out;
}

/** The validator's errors for this feed (empty: valid), given the address it is served at. */
export function feedErrors(xml: string, selfUrl: string): string[] {
  const errors: string[] = [];
  const doc = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml) as Node;
  const rss = doc.rss as Node | undefined;
  if (!rss || rss['@_version'] !== '2.0') return ['not an RSS 2.0 document'];
  for (const prefix of prefixesIn(rss)) {
    const declared = rss[`@_xmlns:${prefix}`];
    if (declared === undefined) errors.push(`undeclared namespace prefix ${prefix}`);
    else if (NAMESPACES[prefix] && declared !== NAMESPACES[prefix])
      errors.push(`wrong namespace for ${prefix}: ${text(declared)}`);
  }
  const channel = rss.channel as Node;
  for (const field of ['title', 'link', 'description'])
    if (!text(channel[field]).trim()) errors.push(`channel lacks ${field}`);
  const self = list(channel['atom:link']).filter((link) => link['@_rel'] === 'self');
  if (self.length !== 1) errors.push('missing atom:link rel="self"');
  else if (self[0]?.['@_href'] !== selfUrl)
    errors.push(`self link ${String(self[0]?.['@_href'])} is not ${selfUrl}`);
  else if (self[0]['@_type'] !== 'application/rss+xml') errors.push('self link type');
  for (const [index, item] of list(channel.item).entries()) {
    if (!text(item.title) && !text(item.description)) errors.push(`item ${index}: no title`);
    for (const author of list(item.author))
      if (!EMAIL_AUTHOR.test(text(author))) errors.push(`item ${index}: author not an e-mail`);
    if (item.pubDate !== undefined && !RFC822.test(text(item.pubDate)))
      errors.push(`item ${index}: pubDate ${text(item.pubDate)} not RFC-822`);
    for (const guid of list(item.guid)) {
      const permaLink = (guid['@_isPermaLink'] ?? 'true') !== 'false';
      if (permaLink && !/^https?:\/\/[^/]+\//.test(text(guid)))
        errors.push(`item ${index}: permalink guid is not an absolute URL`);
    }
    if (item.link !== undefined && !/^https?:\/\/[^/]+\//.test(text(item.link)))
      errors.push(`item ${index}: link is not absolute`);
  }
  return errors;
}
