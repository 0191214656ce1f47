import { isRecord } from '../../content/records.ts';
import { LIST_ENVELOPES, valueAt } from '../../upstream/profile.ts';
import type { OperationNeeds, OperationProfile } from '../../upstream/profile.ts';
import { fieldCandidates } from './field-finder.ts';
import { recordLists } from './matchers.ts';
import type { Evidence } from './field-finder.ts';
import { mergeOp } from '../schema.ts';

/**
 * Where an answer keeps its list or item and its page fields, and where a needed field is when it is
 * not at the site's name: the doctor's proposals from one answer.
 */

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
    // The longest list of records at any depth, under any envelope.
    const [list] = recordLists(body);
    if (list) return { recognised: false, at: list.path || '(body)', propose: list.path };
    return { recognised: false };
  }
  if (op.envelope)
    return { recognised: valueAt(body, op.envelope[0] ?? '') !== undefined, at: op.envelope[0] };
  const record = isRecord(body) ? body : {};
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

/**
 * Where `need` is in `records` (the answer's records as the profile reads them so far; `a[].b`:
 * inside the elements of each record's list `a`), judged by its values on every record: the best
 * place and up to two others that fit every record as well. `taken`: places other needs read.
 */
export function proposeField(
  records: readonly unknown[],
  need: string,
  evidence: Evidence,
  taken: readonly string[] = [],
): { path: string; alternatives: string[] } | undefined {
  const split = need.indexOf('[].');
  const inner = split >= 0 ? need.slice(split + 3) : need;
  const within =
    split >= 0
      ? records.flatMap((record): unknown[] => {
          const list = valueAt(record, need.slice(0, split));
          return Array.isArray(list) ? list : [];
        })
      : records;
  if (within.length === 0) return undefined;
  const found = fieldCandidates(within, inner, evidence, taken).filter((c) => c.path !== need);
  const [best, ...rest] = found;
  if (!best) return undefined;
  const alternatives = rest
    .filter((c) => c.holdsAll && c.joined === best.joined && best.score - c.score < 3)
    .slice(0, 2)
    .map((c) => c.path);
  return { path: best.path, alternatives };
}
