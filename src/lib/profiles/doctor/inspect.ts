import { isRecord } from '../../content/records.ts';
import { issuesSummary } from '../../failures/fields.ts';
import { valueAt } from '../../upstream/parse.ts';
import { fillPath, findItem, listAt, missingNeeds, reshapeBody } from '../../upstream/profile.ts';
import type { OperationNeeds, OperationProfile } from '../../upstream/profile.ts';
import { fieldCandidates } from './field-finder.ts';
import type { Evidence } from './field-finder.ts';
import type { Answer } from './http.ts';
import { recordLists } from './matchers.ts';
import type { Check, ServiceRun } from './report.ts';
import { maskedSample, shapeLines } from './shape.ts';
import { mergeOp } from '../schema.ts';

/**
 * One answer inspected: where it keeps its list or item and its page fields, and where a needed
 * field is when it is not at the site's name: the doctor's proposals from one answer.
 */

export function findEnvelope(
  body: unknown,
  declared: OperationNeeds,
  op: OperationProfile,
): { recognised: boolean; at?: string | undefined; propose?: string | undefined } {
  if (declared.kind === 'list') {
    const found = listAt(body, op.envelope);
    if (found) {
      const { path } = found;
      // The schemas read the usual places but `results` on their own; the profile must name others.
      const known = op.envelope !== undefined || path !== 'results';
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
  const [only, ...more] = Object.keys(record);
  if (only && more.length === 0 && isRecord(record[only]))
    return { recognised: false, at: only, propose: only };
  return { recognised: true, at: '(body)' };
}

export const PAGE_SIZE = 5;
/** Other names of `per_page`, tried when a list gives more than was asked for. */
const PAGE_SIZE_NAMES = ['limit', 'page_size', 'size', 'perPage', 'pageSize'];

/** Page fields of a list, when the answer has none where the schemas look (`meta`, top level). */
const META_CANDIDATES: Record<string, string> = {
  total: 'paging.count paging.total pagination.total pagination.count total count total_count',
  current_page: 'paging.page pagination.page pagination.current_page page current_page',
  last_page:
    'paging.pages pagination.pages pagination.last_page pagination.total_pages total_pages pages last_page',
};

function proposeListMeta(
  body: unknown,
  operation: string,
  proposals: Record<string, OperationProfile>,
): void {
  for (const [field, candidates] of Object.entries(META_CANDIDATES)) {
    if (valueAt(body, `meta.${field}`) !== undefined || valueAt(body, field) !== undefined)
      continue;
    const found = candidates.split(' ').find((path) => {
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

/** One operation's answer, as the doctor inspects it. */
type Inspection = Check & { answer: Answer };

/** A found field's sample, masked as the answer's shape is: the report is printed and saved to disk. */
const sample = (need: string, value: unknown) =>
  value === undefined || value === null ? undefined : maskedSample(need, value) || undefined;

/** The answer as the site's schema reads it with the profile and the proposals so far. */
function evaluate(at: Inspection, working: OperationProfile) {
  const { declared } = at;
  const shaped = reshapeBody(at.answer.body, working, declared.kind);
  const parsed = declared.schema.safeParse(shaped);
  const parsedSample: unknown = parsed.success
    ? valueAt(parsed.data, declared.kind === 'list' ? 'items.0' : '')
    : undefined;
  const data = valueAt(shaped, 'data');
  // Every record as the profile reads it so far: fields are judged on all of them.
  const records: unknown[] =
    declared.kind === 'list' ? (Array.isArray(data) ? data : []) : data === undefined ? [] : [data];
  return { parsed, parsedSample, records };
}
type State = ReturnType<typeof evaluate>;

/** The needs the schema's reading lacks; where it dropped a list to empty, the answer's own is judged. */
function missingOf({ parsed, parsedSample, records: [raw] }: State, needs: readonly string[]) {
  if (!parsed.success) return missingNeeds(raw, needs);
  return needs.filter((need) => {
    const list = need.split('[].')[0] ?? need;
    const read = valueAt(parsedSample, list);
    if (Array.isArray(read) && read.length === 0)
      return !Array.isArray(valueAt(raw, list)) || missingNeeds(raw, [need]).length > 0;
    return missingNeeds(parsedSample, [need]).length > 0;
  });
}

/** More items than asked for: the API reads the page size under another name. */
async function findPageSizeName(run: ServiceRun, at: Inspection, working: OperationProfile) {
  const items = listAt(at.answer.body, working.envelope)?.list ?? [];
  if (items.length <= PAGE_SIZE || run.pageSizeName) return;
  for (const name of PAGE_SIZE_NAMES) {
    const tried = await run.getter.get(fillPath(at.entry.path ?? '', at.params), {
      ...at.query,
      [name]: String(PAGE_SIZE),
    });
    const list = tried && listAt(tried.body, working.envelope)?.list;
    if (list && list.length <= PAGE_SIZE) {
      run.pageSizeName = name;
      return;
    }
  }
}

/** The report's field lines and the unmapped entries of one operation. */
function recordFields(
  run: ServiceRun,
  at: Inspection,
  state: State,
  working: OperationProfile,
  alternatives: ReadonlyMap<string, string[]>,
) {
  const { entry, operation, declared } = at;
  const { service, report } = run;
  const missing = new Set(missingOf(state, declared.needs));
  const mapped = working.fields ?? {};
  const proposal = run.proposals[operation];
  const proposedFields = proposal?.fields ?? {};
  const read: unknown = state.parsedSample ?? state.records[0];
  entry.fields = declared.needs.map((need) => ({
    need,
    found: !missing.has(need),
    path: (proposedFields[need] ?? mapped[need])?.join(' | ') ?? need,
    ...(proposedFields[need] && { proposed: true }),
    sample: missing.has(need)
      ? undefined
      : sample(need, valueAt(read, need.split('[].')[0] ?? need)),
    ...(proposedFields[need] && alternatives.has(need) && { alternatives: alternatives.get(need) }),
  }));
  if (!state.parsed.success) entry.issues = issuesSummary(state.parsed.error.issues, 3);
  if (missing.size > 0) entry.shape = shapeLines(state.records);
  // Unmapped until the profile says it: fields not found, and those only a proposal reads.
  const unmapped = (what: string) => report.unmapped.push(`${service} ${operation} → ${what}`);
  for (const field of entry.fields) {
    if (!field.found) unmapped(`${field.need}: not found`);
    else if (field.proposed) unmapped(`${field.need}: at ${field.path} (proposed)`);
  }
  if (proposal?.path) unmapped(`path ${proposal.path} (proposed)`);
  if (proposal?.envelope) unmapped(`envelope ${proposal.envelope.join(' | ')} (proposed)`);
}

/**
 * Where the other needs of the operation are read (their proposals, or their own names where the
 * answer has them), relative to the records `need` is looked for in: not to be taken twice.
 */
function takenPaths(
  need: string,
  needs: readonly string[],
  working: OperationProfile,
  missing: readonly string[],
): string[] {
  const split = need.indexOf('[].');
  const prefix = split >= 0 ? need.slice(0, split + 3) : '';
  return needs
    .filter(
      (other) =>
        other !== need && other.startsWith(prefix) && !other.slice(prefix.length).includes('[].'),
    )
    .flatMap((other) => {
      // The site's own name too: a mapped field is copied there.
      const own = other.slice(prefix.length);
      return [...(working.fields?.[other] ?? []), ...(missing.includes(other) ? [] : [own])];
    });
}

/** Ids the later reads join to: the property's rooms, the guests. */
function collectIds(run: ServiceRun, operation: string, records: readonly unknown[]): void {
  const ids = run.evidence.ids;
  const add = (kind: string, value: unknown) => {
    if (typeof value !== 'string' && typeof value !== 'number') return;
    (ids[kind] ??= new Set()).add(String(value));
  };
  for (const record of records) {
    if (operation === 'properties.list') add('property', valueAt(record, 'id'));
    if (operation === 'guests.list') add('guest', valueAt(record, 'id'));
    if (operation === 'properties.get') {
      const rooms = valueAt(record, 'room_types');
      if (Array.isArray(rooms)) for (const room of rooms) add('room', valueAt(room, 'id'));
    }
  }
}

/** Envelope, page fields and each needed field of one answer, with proposals where they are not. */
export async function inspectAnswer(run: ServiceRun, at: Inspection): Promise<void> {
  const { operation, declared, entry, answer } = at;
  const working = () => mergeOp(at.op, run.proposals[operation] ?? {});
  const envelope = findEnvelope(answer.body, declared, working());
  entry.envelope = { recognised: envelope.recognised, at: envelope.at };
  if (envelope.propose !== undefined) {
    run.proposals[operation] = mergeOp(run.proposals[operation], { envelope: [envelope.propose] });
  }
  if (declared.kind === 'list') {
    proposeListMeta(answer.body, operation, run.proposals);
    await findPageSizeName(run, at, working());
  }
  let state = evaluate(at, working());
  const alternatives = new Map<string, string[]>();
  const raw =
    declared.kind === 'list'
      ? listAt(answer.body, working().envelope)?.list[0]
      : findItem(answer.body, working().envelope);
  if (raw === undefined) {
    entry.skipped = 'the list is empty: nothing to check its fields on';
    return;
  }
  // A list's first record (its links name details) and an item (its links name nested reads).
  run.rawItems.set(operation, raw);
  // Rounds: a list found in one round shows what its elements lack in the next.
  for (let round = 0, proposed = true; proposed && round < 3; round++) {
    proposed = false;
    for (const need of missingOf(state, declared.needs)) {
      const missing = missingOf(state, declared.needs);
      // An earlier entry (the list a field lives in) may have made it readable.
      if (!missing.includes(need)) continue;
      const records = state.records.length > 0 ? state.records : [raw];
      const taken = takenPaths(need, declared.needs, working(), missing);
      const proposal = proposeField(records, need, run.evidence, taken);
      if (!proposal) continue;
      run.proposals[operation] = mergeOp(run.proposals[operation], {
        fields: { [need]: [proposal.path] },
      });
      if (proposal.alternatives.length > 0) alternatives.set(need, proposal.alternatives);
      state = evaluate(at, working());
      proposed = true;
    }
  }
  recordFields(run, at, state, working(), alternatives);
  if (state.parsed.success && state.parsedSample !== undefined)
    run.samples.set(operation, state.parsedSample);
  collectIds(run, operation, state.records);
}
