import { isRecord } from '../../content/records.ts';
import { fillPath } from '../../upstream/profile.ts';
import type { OperationNeeds } from '../../upstream/profile.ts';
import type { Answer, Getter } from './http.ts';
import { lastSegment, linkTemplates, linksIn } from './links.ts';
import { resourceSegments } from './spellings.ts';
import { leafPaths } from './matchers.ts';

/**
 * Where an operation is, when its path (the profile's, else the default dialect's) answers 404:
 * first what the API says itself (a detail link inside the list's records, the index at its base
 * address), then the contract's words for the resource in every usual spelling
 * (./spellings.ts), details below the list found, nested reads below their parent. Each path tried
 * is kept for the report.
 */

export interface Tried {
  path: string;
  status: number | 'budget';
}

export interface PathSearch {
  operation: string;
  declared: OperationNeeds;
  /** The profile's path, else the declared one: tried first. */
  template: string;
  params: Record<string, string>;
  query: Record<string, string>;
  baseUrl: string;
  /** Paths found so far: operation → template. */
  found: ReadonlyMap<string, string>;
  /** The raw first record of each list read so far (its links name detail paths). */
  rawItems: ReadonlyMap<string, unknown>;
  /** The links of the API's index (read once per service). */
  index: () => Promise<string[]>;
  get: Getter['get'];
  /**
   * Whether an answer's records hold what the operation needs: asked of the index's links whose
   * words are none of the resource's (an API with words of its own).
   */
  judge?: ((answer: Answer) => boolean) | undefined;
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
function answerFits(answer: Answer | undefined, kind: 'list' | 'item'): boolean {
  if (!answer || answer.status < 200 || answer.status >= 300 || answer.body === undefined)
    return false;
  if (kind === 'item') return isRecord(answer.body);
  const values = [answer.body, ...leafPaths(answer.body, 4).map(({ value }) => value)];
  return values.some((v) => Array.isArray(v) && (v.length === 0 || v.some(isRecord)));
}

const placeholder = (template: string): string | undefined => /\{(\w+)\}/.exec(template)?.[1];

function listTemplates(resource: string, index: readonly string[]): string[] {
  const segments = resourceSegments(resource);
  const listed = segments.flatMap((segment) =>
    index.filter((link) => link === `/${segment}` || lastSegment(link) === segment),
  );
  return [...listed, ...segments.map((segment) => `/${segment}`)];
}

/** The index's links that no operation has taken yet (judged by their records, last). */
function unclaimed(search: PathSearch, index: readonly string[]): string[] {
  const taken = new Set(search.found.values());
  return index.filter((link) => !taken.has(link));
}

function detailTemplates(search: PathSearch, resource: string, index: readonly string[]): string[] {
  const param = placeholder(search.declared.path) ?? 'slug';
  const list = search.found.get(`${resource}.list`);
  const item = search.rawItems.get(`${resource}.list`);
  const key = search.params[param];
  const linked = key ? linkTemplates(item, key, param, search.baseUrl).own : undefined;
  return [
    ...(linked ? [linked] : []),
    ...(list ? [`${list}/{${param}}`] : []),
    ...listTemplates(resource, index).map((path) => `${path}/{${param}}`),
  ];
}

function nestedTemplates(search: PathSearch, index: readonly string[]): string[] {
  const nested = NESTED[search.operation];
  if (!nested) return [];
  const [parentResource = ''] = nested.parent.split('.');
  const found = search.found.get(nested.parent);
  const key = search.params[nested.param];
  const parent = search.rawItems.get(nested.parent);
  const linked = key ? linkTemplates(parent, key, nested.param, search.baseUrl).nested : [];
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

/** The templates to try for an operation, in order, without the one already tried. */
async function candidateTemplates(search: PathSearch): Promise<string[]> {
  const [resource = '', verb = ''] = search.operation.split('.');
  const index = await search.index();
  const templates = NESTED[search.operation]
    ? nestedTemplates(search, index)
    : verb === 'list'
      ? listTemplates(resource, index)
      : detailTemplates(search, resource, index);
  const own = [...new Set(templates)].filter((template) => template !== search.template);
  const judged = verb === 'list' && !NESTED[search.operation] ? unclaimed(search, index) : [];
  return [...own, ...judged.filter((link) => !own.includes(link))];
}

/** The operation's answer: at its template, else at the first candidate that fits. */
export async function searchPath(
  search: PathSearch,
): Promise<{ answer?: Answer; template: string; tried: Tried[] }> {
  const tried: Tried[] = [];
  const attempt = async (template: string) => {
    const path = fillPath(template, search.params);
    const answer = await search.get(path, search.query);
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
  const index = await search.index();
  for (const template of await candidateTemplates(search)) {
    const answer = await attempt(template);
    if (!answer) break;
    // A link of the index in words of its own counts only when its records fit the needs.
    const judged = index.includes(template) && !!search.judge;
    if (answerFits(answer, search.declared.kind) && (!judged || search.judge?.(answer)))
      return { answer, template, tried };
  }
  return { answer: first, template: search.template, tried };
}

/** The links of the index at the base address (`""`, then `/`), read once. */
export function indexReader(get: Getter['get'], baseUrl: string): () => Promise<string[]> {
  let links: Promise<string[]> | undefined;
  return () => {
    links ??= (async () => {
      for (const path of ['', '/']) {
        const answer = await get(path);
        if (answer && answer.status >= 200 && answer.status < 300 && answer.body !== undefined)
          return linksIn(answer.body, baseUrl);
      }
      return [];
    })();
    return links;
  };
}
