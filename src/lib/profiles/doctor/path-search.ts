import { isRecord } from '../../content/records.ts';
import { valueAt } from '../../upstream/parse.ts';
import { fillPath } from '../../upstream/profile.ts';
import type { OperationNeeds } from '../../upstream/profile.ts';
import { fieldCandidates } from './field-finder.ts';
import type { Evidence } from './field-finder.ts';
import type { Answer, Getter } from './http.ts';
import { isUrl, joins, leafPaths, recordLists } from './matchers.ts';
import type { Check, ServiceRun, Tried } from './report.ts';
import { resourceSegments } from './spellings.ts';

/**
 * Where an operation is, when its path (the profile's, else the default dialect's) answers 404:
 * first what the API says itself (a detail link inside the list's records, the index at its base
 * address), then the contract's words for the resource in every usual spelling
 * (./spellings.ts), details below the list found, nested reads below their parent, and last the
 * index's links in words of the API's own, judged by their records. Each path tried is kept for
 * the report.
 */

// Links an API gives itself: an index at its base address (`{ "links": { "articles": "/articles" } }`,
// HAL `_links`, a plain list of URLs) and the addresses inside its records (`url`, `self`). The
// doctor tries them before its own spellings: an API that says where things are is not guessed at.

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
  // A link written relative to the host (`/api/v1/articles`) or to the base (`/articles`); every
  // path of its host is below a base at the host's root.
  if (prefix && path.startsWith(`${prefix}/`)) path = path.slice(prefix.length);
  else if (prefix && /^https?:/.test(link)) return undefined;
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
  const values = body && typeof body === 'object' ? Object.values(body) : [];
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

/** Reads nested below another operation's item: comments of a post, availability of a property. */
const NESTED: Readonly<Record<string, { parent: string; param: string; resource: string }>> = {
  'comments.list': { parent: 'posts.get', param: 'postSlug', resource: 'comments' },
  'properties.availability': {
    parent: 'properties.get',
    param: 'propertyId',
    resource: 'availability',
  },
};

/** Whether an answer can be the operation's: JSON, and a list of records (or an empty one) for a list. */
function answerFits(answer: Answer | undefined, kind: OperationNeeds['kind']): boolean {
  if (!answer || answer.status < 200 || answer.status >= 300 || answer.body === undefined)
    return false;
  if (kind !== 'list') return isRecord(answer.body);
  const values = [answer.body, ...leafPaths(answer.body, 4).map(({ value }) => value)];
  return values.some((v) => Array.isArray(v) && (v.length === 0 || v.some(isRecord)));
}

const placeholder = (template: string): string | undefined => /\{(\w+)\}/.exec(template)?.[1];

function listTemplates(resource: string, index: readonly string[]): string[] {
  const segments = resourceSegments(resource);
  const listed = segments.flatMap((segment) =>
    index.filter((link) => link === `/${segment}` || link.split('/').at(-1) === segment),
  );
  return [...listed, ...segments.map((segment) => `/${segment}`)];
}

function detailTemplates(
  run: ServiceRun,
  search: Check,
  resource: string,
  index: readonly string[],
): string[] {
  const param = placeholder(search.declared.path) ?? 'slug';
  const list = run.found.get(`${resource}.list`);
  const item = run.rawItems.get(`${resource}.list`);
  const key = search.params[param];
  const linked = key ? linkTemplates(item, key, param, run.baseUrl).own : undefined;
  return [
    ...(linked ? [linked] : []),
    ...(list ? [`${list}/{${param}}`] : []),
    ...listTemplates(resource, index).map((path) => `${path}/{${param}}`),
  ];
}

function nestedTemplates(run: ServiceRun, search: Check, index: readonly string[]): string[] {
  const nested = NESTED[search.operation];
  if (!nested) return [];
  const [parentResource = ''] = nested.parent.split('.');
  const found = run.found.get(nested.parent);
  const key = search.params[nested.param];
  const parent = run.rawItems.get(nested.parent);
  const linked = key ? linkTemplates(parent, key, nested.param, run.baseUrl).nested : [];
  const parents = [
    ...(found ? [found.replace(/\{\w+\}/, `{${nested.param}}`)] : []),
    ...listTemplates(parentResource, index).map((path) => `${path}/{${nested.param}}`),
  ];
  const children = resourceSegments(nested.resource);
  // Below the parent found: every spelling; below guessed parents: the usual ones.
  return [
    ...linked,
    ...parents.flatMap((parent, i) =>
      (i === 0 ? children : children.slice(0, 2)).map((child) => `${parent}/${child}`),
    ),
  ];
}

/**
 * The templates to try, in order, without the one already tried; last, for a list, the index's
 * links no operation has taken yet (judged by their records).
 */
function candidateTemplates(run: ServiceRun, search: Check, index: readonly string[]): string[] {
  const [resource = '', verb = ''] = search.operation.split('.');
  const templates = NESTED[search.operation]
    ? nestedTemplates(run, search, index)
    : verb === 'list'
      ? listTemplates(resource, index)
      : detailTemplates(run, search, resource, index);
  const own = [...new Set(templates)].filter((template) => template !== search.template);
  const taken = new Set(run.found.values());
  const judged =
    verb === 'list' && !NESTED[search.operation] ? index.filter((link) => !taken.has(link)) : [];
  return [...own, ...judged.filter((link) => !own.includes(link))];
}

const hasUrl = (records: readonly unknown[]) =>
  records.some((record) => leafPaths(record, 1).some(({ value }) => isUrl(value)));

/** What the contract says sets a list apart from its look-alikes. */
const MARKS: Readonly<Record<string, (records: readonly unknown[], ev: Evidence) => boolean>> = {
  // Contract: "Tag: id, name, slug, url"; "Category: id, name, slug, posts_count".
  'tags.list': hasUrl,
  'categories.list': (records) => !hasUrl(records),
  // The first place an id fits holds the tenant's properties.
  'properties.list': (records, evidence) => {
    const [id] = fieldCandidates(records, 'id', evidence);
    const ids = evidence.ids['property'] ?? new Set<string>();
    return !!id && records.some((record) => joins(valueAt(record, id.path), ids));
  },
};

/**
 * Whether a list answer is the operation's, by its records alone (an index link in words of the
 * API's own): every needed field fits somewhere, and its mark (a tag has an address, a category
 * has none; a property's id is one of the tenant's) holds.
 */
export function judgeList(
  operation: string,
  declared: OperationNeeds,
  evidence: Evidence,
): (answer: Answer) => boolean {
  return (answer) => {
    const [list] = recordLists(answer.body);
    if (!list) return false;
    const taken: string[] = [];
    for (const need of declared.needs.filter((one) => !one.includes('[]'))) {
      const [best] = fieldCandidates(list.records, need, evidence, taken);
      if (!best) return false;
      taken.push(best.path);
    }
    return MARKS[operation]?.(list.records, evidence) ?? true;
  };
}

/** The operation's answer: at its template, else at the first candidate that fits. */
export async function searchPath(
  run: ServiceRun,
  search: Check,
): Promise<{ answer?: Answer; template: string; tried: Tried[] }> {
  const tried: Tried[] = [];
  const attempt = async (template: string) => {
    const answer = await run.getter.get(fillPath(template, search.params), search.query);
    tried.push({ path: template, status: answer?.status ?? 'budget' });
    return answer;
  };
  const first = await attempt(search.template);
  // Only a missing route (or a 2xx that is no JSON: a web page) is searched for; a refusal (401,
  // 403) or an error is reported as it is.
  const missing =
    first &&
    ([404, 405, 410].includes(first.status) ||
      (first.status >= 200 && first.status < 300 && first.body === undefined));
  if (!first || !missing) {
    return { ...(first && { answer: first }), template: search.template, tried };
  }
  const { kind } = search.declared;
  const judge =
    kind === 'list' ? judgeList(search.operation, search.declared, run.evidence) : undefined;
  const index = await run.index();
  for (const template of candidateTemplates(run, search, index)) {
    const answer = await attempt(template);
    if (!answer) break;
    // A link of the index in words of its own counts only when its records fit the needs.
    const judged = index.includes(template) && !!judge;
    if (answerFits(answer, kind) && (!judged || judge?.(answer)))
      return { answer, template, tried };
  }
  return { answer: first, template: search.template, tried };
}

/** The links of the index at the base address (`""`, then `/`), read once. */
export function indexReader(get: Getter['get'], baseUrl: string): () => Promise<string[]> {
  let links: Promise<string[]> | undefined;
  return () =>
    (links ??= (async () => {
      for (const path of ['', '/']) {
        const answer = await get(path);
        if (answer && answer.status >= 200 && answer.status < 300 && answer.body !== undefined)
          return linksIn(answer.body, baseUrl);
      }
      return [];
    })());
}
