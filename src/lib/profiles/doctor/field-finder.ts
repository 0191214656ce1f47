import { valueAt } from '../../upstream/parse.ts';
import {
  isCount,
  isCurrencyCode,
  isDateIn,
  isEmail,
  isHtml,
  isIdentifier,
  isIsoDate,
  isSlug,
  isStatusSet,
  isStayTotal,
  isText,
  isUrl,
  joins,
  leafPaths,
  moneyValue,
} from './matchers.ts';
import { tokens } from './spellings.ts';

/**
 * Where a needed field is, found by what its values are and how they join, the name only a hint:
 * every place in the records is tried, kept when its values fit the need on every record, and ranked
 * by the evidence (an id that equals one seen in another answer, a total that is nights × a nightly
 * rate beside it), then by how its name reads.
 */

/** Names real APIs use for each of the site's field names (segments of a need are tried separately). */
const SYNONYMS: Readonly<Record<string, string>> = {
  id: 'id uid uuid key identifier _id',
  title: 'title headline heading name label subject',
  name: 'name label title display display_name full_name',
  slug: 'slug handle permalink code key path',
  content: 'content body body_html html text',
  excerpt: 'excerpt summary teaser lead description',
  published_at:
    'published_at published_on publish_date issue_date date published released_at created_at',
  created_at: 'created_at posted_at date timestamp submitted_at',
  author: 'author writer byline user',
  author_name: 'author_name author.name author.display author.display_name byline user.name',
  cover_image_url: 'cover_image_url cover cover_url cover_image image image_url thumbnail',
  page_count: 'page_count pages_total num_pages page_total pages_count',
  price: 'price amount cost price_amount',
  currency: 'currency currency_code iso_currency',
  interval: 'interval billing_period period billing_interval frequency',
  status: 'status state booking_status phase',
  city: 'city town locality location.town location.city address.city',
  category: 'category section department',
  tag: 'tag topic keyword label',
  posts: 'posts articles stories items',
  room_types: 'room_types rooms room_categories categories units offers',
  room_type_id: 'room_type_id category_id category_ref room_id unit_id id',
  available_rooms: 'available_rooms free_units units_available available_units vacancies remaining',
  total_price: 'total_price total price.total grand_total total_amount amount',
  max_occupancy: 'max_occupancy sleeps capacity.total capacity occupancy max_guests',
  reference: 'reference locator confirmation_code booking_reference code',
  check_in: 'check_in arrival arrival_date from start_date stay.from',
  check_out: 'check_out departure departure_date to end_date stay.to',
  guest_id: 'guest_id guest_ref guest.id customer_id',
  property_id: 'property_id property_ref property.id hotel_id hotel_ref',
  first_name: 'first_name given_name firstname forename',
  last_name: 'last_name family_name lastname surname',
  email: 'email email_address mail e_mail',
  token: 'token access_token api_token plain_text_token',
};

const synonyms = (name: string) => SYNONYMS[name]?.split(' ');

/** Every path the synonyms give for `need` (each dotted segment expanded), the need itself first. */
function spellings(need: string): string[] {
  const own = synonyms(need);
  if (own) return own;
  return need.split('.').reduce<string[]>(
    (paths, segment) => {
      const options = synonyms(segment) ?? [segment];
      return paths.flatMap((path) =>
        options.map((option) => (path ? `${path}.${option}` : option)),
      );
    },
    [''],
  );
}

/**
 * How well the name at `path` reads as `need`: 6 the same, 4 a usual other name, 2 a word in
 * common (`grand_total` for `total_price`), 0 none.
 */
export function nameHint(path: string, need: string): number {
  if (path === need) return 6;
  if (spellings(need).includes(path)) return 4;
  const leaf = need.split('.').at(-1) ?? need;
  const last = path.split('.').at(-1) ?? path;
  if (last === leaf || synonyms(leaf)?.includes(last)) return 3;
  const wanted = new Set(tokens(need).filter((t) => t !== 'at'));
  return tokens(path).some((t) => wanted.has(t)) ? 2 : 0;
}

/** What the doctor knows from other answers. */
export interface Evidence {
  /** Ids seen elsewhere, by what they identify: `property`, `room`, `guest`. */
  ids: Record<string, Set<string>>;
  /** The stay availability was asked for. */
  stay?: { from: string; to: string; nights: number } | undefined;
}

interface FieldCandidate {
  path: string;
  /** Whether the values fit on every record (else on some). */
  holdsAll: boolean;
  /** Evidence beyond the kind: a join or a stay total. */
  joined: boolean;
  score: number;
}

type Values = readonly unknown[];
type Fit = (values: Values) => boolean;

const every =
  (test: (value: unknown) => boolean): Fit =>
  (values) =>
    values.every(test);
const distinct = (values: Values) => new Set(values.map(String)).size === values.length;

/** How each field the site reads is recognised (by its last name segment); others: `isText`. */
const FITS: Readonly<Record<string, Fit>> = {
  id: (values) => values.every(isIdentifier) && distinct(values),
  slug: (values) => values.every(isSlug) && distinct(values),
  // A booking's reference: a code (`TH-0999`, `BK-JUSPNX`), one per booking; no status word.
  reference: (values) =>
    values.every(
      (v) => typeof v === 'string' && /^[\w-]{3,40}$/.test(v) && /\d|^[A-Z0-9-]+$/.test(v),
    ) && distinct(values),
  content: every((v) => isHtml(v) || isText(v)),
  published_at: every(isIsoDate),
  created_at: every(isIsoDate),
  check_in: every(isIsoDate),
  check_out: every(isIsoDate),
  price: every((v) => moneyValue(v) !== undefined),
  total_price: every((v) => moneyValue(v) !== undefined),
  currency: every(isCurrencyCode),
  email: every(isEmail),
  status: isStatusSet,
  interval: isStatusSet,
  available_rooms: every((v) => isCount(v)),
  max_occupancy: every((v) => isCount(v, 50)),
  page_count: every((v) => isCount(v, 2000)),
  cover_image_url: every(isUrl),
  token: every((v) => typeof v === 'string' && v.length >= 16 && !/\s/.test(v)),
  posts: every((v) => Array.isArray(v)),
  room_types: every((v) => Array.isArray(v)),
  room_type_id: every(isIdentifier),
  property_id: every(isIdentifier),
  guest_id: every(isIdentifier),
};

/** Joins that make a candidate certain: the id of another answer's record (what it identifies). */
const JOINS: Readonly<Record<string, string>> = {
  room_type_id: 'room',
  property_id: 'property',
  guest_id: 'guest',
};

/** A date inside the asked stay; a total that is the nights × a nightly rate beside it. */
function stayEvidence(leaf: string, values: Values, records: Values, ev: Evidence): boolean {
  const stay = ev.stay;
  if (!stay) return false;
  if (leaf === 'check_in' || leaf === 'check_out')
    return values.every((v) => isDateIn(v, stay.from, stay.to));
  if (leaf !== 'total_price') return false;
  return records.every((record, i) =>
    leafPaths(record, 2).some(
      ({ value }) => value !== values[i] && isStayTotal(values[i], stay.nights, value),
    ),
  );
}

/** Of dates, `check_in` is the earlier and `check_out` the later of a record's two. */
function dateOrder(leaf: string, path: string, records: Values, taken: readonly string[]): number {
  if (leaf !== 'check_in' && leaf !== 'check_out') return 0;
  const dates = (record: unknown) =>
    leafPaths(record, 2)
      .filter(({ path: p, value }) => isIsoDate(value) && !taken.includes(p))
      .map(({ value }) => String(value).slice(0, 10))
      .sort();
  const own = records.map((r) => String(valueAt(r, path)).slice(0, 10));
  const fits = records.every((record, i) => {
    const all = dates(record);
    return leaf === 'check_in' ? own[i] === all[0] : own[i] === all.at(-1);
  });
  return fits ? 2 : 0;
}

/** Needs read as words for people: words with a space or a capital beat a slug's. */
const TEXT_NEEDS = new Set(['title', 'name', 'first_name', 'last_name', 'city', 'author_name']);

/** Places in `records` where `need` fits, best first (those holding on every record first). */
export function fieldCandidates(
  records: Values,
  need: string,
  ev: Evidence,
  taken: readonly string[] = [],
): FieldCandidate[] {
  const leaf = need.split('.').at(-1) ?? need;
  const fit = FITS[need.replace('.', '_')] ?? FITS[leaf] ?? every(isText);
  const depth = need.split('.').length;
  const kind = JOINS[leaf];
  const ids = kind && ev.ids[kind];
  const paths = new Set(records.flatMap((record) => leafPaths(record).map((l) => l.path)));
  const found: FieldCandidate[] = [];
  for (const path of paths) {
    if (taken.includes(path)) continue;
    const values = records.map((record) => valueAt(record, path));
    const present = values.filter((v) => v !== undefined && v !== null && v !== '');
    if (present.length === 0 || !fit(present)) continue;
    const holdsAll = present.length === values.length;
    const joined =
      (!!ids && ids.size > 0 && present.every((v) => joins(v, ids))) ||
      stayEvidence(leaf, present, records, ev);
    const score =
      (holdsAll ? 100 : 0) +
      (joined ? 20 : 0) +
      dateOrder(leaf, path, records, taken) +
      (leaf === 'content' && present.some((v) => isHtml(v) || String(v).length > 40) ? 1 : 0) +
      (TEXT_NEEDS.has(leaf) && present.some((v) => typeof v === 'string' && /\s|[A-Z]/.test(v))
        ? 1
        : 0) +
      nameHint(path, need) +
      (path.split('.').length === depth ? 1 : 0);
    found.push({ path, holdsAll, joined, score });
  }
  // Equal evidence: the place that comes first in the record (APIs keep `name` before `city`,
  // a first name before a last name).
  const order = [...paths];
  return found.sort((a, b) => b.score - a.score || order.indexOf(a.path) - order.indexOf(b.path));
}
