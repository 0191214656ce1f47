/**
 * Path segments spelled from the contract's own words for a resource, in every usual way: singular
 * and plural; kebab, snake, camel and joined; the head noun alone, the qualifier alone, and the
 * qualifier as a group in front (`subscriptions/plans`). Most usual first: a doctor with a call
 * budget tries them in this order.
 */

/**
 * Each resource as the contracts name it (section 2 headings) and words it is grouped under; `also`:
 * other nouns APIs use for the same thing, tried after the contract's words (a hint only: an API
 * whose words are on no list is found through its index and links).
 */
const RESOURCE_WORDS: Readonly<
  Record<string, { phrase: string; groups?: string[]; also?: string[] }>
> = {
  // Publishing API, section 2.
  posts: { phrase: 'Post', also: ['article', 'story', 'news'] },
  categories: { phrase: 'Category', also: ['section', 'department'] },
  tags: { phrase: 'Tag', also: ['topic', 'keyword', 'label'] },
  plans: { phrase: 'Subscription plan', also: ['pricing'] },
  epaper: { phrase: 'E-paper edition', also: ['issue'] },
  // "Streams appear as live, scheduled or ended" (section 3).
  streams: { phrase: 'Stream', groups: ['live'], also: ['broadcast', 'livestream', 'video'] },
  comments: { phrase: 'Comment' },
  // Lodging API, sections 2 and 4.
  properties: { phrase: 'Property', also: ['hotel'] },
  availability: { phrase: 'Availability', also: ['offer', 'rate'] },
  bookings: { phrase: 'Booking', also: ['reservation'] },
  guests: { phrase: 'Guest', also: ['customer'] },
};

/** The words of a name: `grandTotal`, `grand_total`, `grand-total.amount` → grand, total, amount. */
export function tokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** English plural of one word (the contracts' nouns are regular). */
export function plural(word: string): string {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/**
 * One list of words joined every usual way: kebab, snake, camel, joined; words that came hyphenated
 * in the contract (`e-paper`) also keep that hyphen inside the others (`e-paper_editions`) once.
 */
export function compounds(words: readonly string[]): string[] {
  const camel = words.map((w, i) => (i === 0 ? w : `${w[0]?.toUpperCase() ?? ''}${w.slice(1)}`));
  return unique([words.join('-'), words.join('_'), camel.join(''), words.join('')]);
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values.filter(Boolean))];
}

/** The segments a resource's collection may be at, most usual first (plural before singular). */
export function segmentsOf(phrase: string, groups: readonly string[] = []): string[] {
  const words = tokens(phrase);
  const head = words.at(-1) ?? '';
  const qualifier = words.slice(0, -1);
  const pluralWords = [...qualifier, plural(head)];
  const qualifierForms = qualifier.length > 0 ? compounds(qualifier) : [];
  const qualifierPlurals =
    qualifier.length > 0
      ? compounds([...qualifier.slice(0, -1), plural(qualifier.at(-1) ?? '')])
      : [];
  const groupForms = unique([
    ...qualifierForms,
    ...qualifierPlurals,
    ...groups.flatMap((group) => compounds(tokens(group))),
  ]);
  return unique([
    ...compounds(pluralWords),
    plural(head),
    ...qualifierForms,
    ...qualifierPlurals,
    ...groupForms.map((group) => `${group}/${plural(head)}`),
    ...compounds(words),
    head,
    ...groupForms.map((group) => `${group}/${head}`),
  ]);
}

/** Segments for a resource of the catalogue (`plans`), or none when the contracts do not name it. */
export function resourceSegments(resource: string): string[] {
  const words = RESOURCE_WORDS[resource];
  if (!words) return [];
  const hints = (words.also ?? []).flatMap((word) => {
    // An uncountable word (`news`, `pricing`) is tried as it is.
    return /(s|ing)$/.test(word) ? [word] : segmentsOf(word);
  });
  return unique([...segmentsOf(words.phrase, words.groups), ...hints]);
}
