import { valueAt } from '../../upstream/profile.ts';
import type { OperationNeeds } from '../../upstream/profile.ts';
import { fieldCandidates } from './field-finder.ts';
import type { Evidence } from './field-finder.ts';
import type { Answer } from './http.ts';
import { isUrl, joins, leafPaths, recordLists } from './matchers.ts';

/**
 * Whether a list answer is the operation's, by its records alone (an index link in words of the
 * API's own): every needed field fits somewhere, and what the contract says sets it apart from its
 * look-alikes (a tag has an address, a category has none; a property's id is one of the tenant's).
 */

type Records = readonly unknown[];

const hasUrl = (records: Records) =>
  records.some((record) => leafPaths(record, 1).some(({ value }) => isUrl(value)));

const MARKS: Readonly<Record<string, (records: Records, evidence: Evidence) => boolean>> = {
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

export function judgeList(
  operation: string,
  declared: OperationNeeds,
  evidence: Evidence,
): (answer: Answer) => boolean {
  return (answer) => {
    const [list] = recordLists(answer.body);
    if (!list) return false;
    const needs = declared.needs.filter((need) => !need.includes('[]'));
    const taken: string[] = [];
    for (const need of needs) {
      const [best] = fieldCandidates(list.records, need, evidence, taken);
      if (!best) return false;
      taken.push(best.path);
    }
    return MARKS[operation]?.(list.records, evidence) ?? true;
  };
}
