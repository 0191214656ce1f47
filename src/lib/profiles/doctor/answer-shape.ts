import { LIST_ENVELOPES, valueAt } from '../../upstream/profile.ts';
import type { OperationNeeds, OperationProfile } from '../../upstream/profile.ts';
import { candidatePaths } from '../candidates.ts';

/**
 * Where an answer keeps its list or item and its page fields, and where a needed field is when it is
 * not at the site's name: the doctor's proposals from one answer.
 */

export function mergeOp(
  base: OperationProfile | undefined,
  extra: OperationProfile,
): OperationProfile {
  return {
    ...base,
    ...extra,
    ...((base?.fields ?? extra.fields) && { fields: { ...base?.fields, ...extra.fields } }),
  };
}

export function findEnvelope(
  body: unknown,
  declared: OperationNeeds,
  op: OperationProfile,
): { recognised: boolean; at?: string | undefined; propose?: string | undefined } {
  if (declared.kind === 'list') {
    for (const path of op.envelope ?? LIST_ENVELOPES) {
      if (!Array.isArray(valueAt(body, path))) continue;
      // The schemas read these on their own; another place needs the profile to say it.
      const known = op.envelope !== undefined || ['', 'data', 'data.data', 'items'].includes(path);
      return { recognised: true, at: path || '(body)', ...(!known && { propose: path }) };
    }
    // Any top-level array of objects.
    if (body && typeof body === 'object') {
      for (const [key, value] of Object.entries(body)) {
        if (Array.isArray(value)) return { recognised: false, at: key, propose: key };
      }
    }
    return { recognised: false };
  }
  if (op.envelope)
    return { recognised: valueAt(body, op.envelope[0] ?? '') !== undefined, at: op.envelope[0] };
  const record =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  if (record['data'] && typeof record['data'] === 'object') return { recognised: true, at: 'data' };
  // One object inside a one-key answer (`{ "result": {…} }`) is the item.
  const keys = Object.keys(record);
  const only = keys.length === 1 ? keys[0] : undefined;
  if (only && record[only] && typeof record[only] === 'object' && !Array.isArray(record[only])) {
    return { recognised: false, at: only, propose: only };
  }
  return { recognised: true, at: '(body)' };
}

export const PAGE_SIZE = 5;
/** Other names of `per_page`, tried when a list gives more than was asked for. */
export const PAGE_SIZE_NAMES = ['limit', 'page_size', 'size', 'perPage', 'pageSize'];

/** Page fields of a list, when the answer has none where the schemas look (`meta`, top level). */
const META_CANDIDATES: Record<string, readonly string[]> = {
  total: [
    'paging.count',
    'paging.total',
    'pagination.total',
    'pagination.count',
    'total',
    'count',
    'total_count',
  ],
  current_page: [
    'paging.page',
    'pagination.page',
    'pagination.current_page',
    'page',
    'current_page',
  ],
  last_page: [
    'paging.pages',
    'pagination.pages',
    'pagination.last_page',
    'pagination.total_pages',
    'total_pages',
    'pages',
    'last_page',
  ],
};

export function proposeListMeta(
  body: unknown,
  operation: string,
  proposals: Record<string, OperationProfile>,
): void {
  for (const [field, candidates] of Object.entries(META_CANDIDATES)) {
    if (valueAt(body, `meta.${field}`) !== undefined || valueAt(body, field) !== undefined)
      continue;
    const found = candidates.find((path) => {
      const value = valueAt(body, path);
      return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));
    });
    if (found) {
      proposals[operation] = mergeOp(proposals[operation], {
        fields: { [`meta.${field}`]: [found] },
      });
    }
  }
}

/** A source path for `need` in `item` (`a[].b`: inside the first element of the list `a`). */
export function proposeField(item: unknown, need: string): string | undefined {
  const split = need.indexOf('[].');
  if (split >= 0) {
    const list = valueAt(item, need.slice(0, split));
    const first: unknown = Array.isArray(list) ? list[0] : undefined;
    return first === undefined ? undefined : candidatePaths(first, need.slice(split + 3))[0]?.path;
  }
  return candidatePaths(item, need).find((candidate) => candidate.path !== need)?.path;
}
