/**
 * Other spellings of one signed image address (issue 33): each one a cache keyed on the path
 * would store as a separate picture. Shared by the parser's unit test and the route's.
 */
/** Its label, how it changes the canonical path, and the parser's status for it. */
export type Spelling = readonly [
  label: string,
  change: (path: string) => string,
  status: 400 | 404,
];

/** Inserts `text` into the source segment (`/_img/u/<here>/…`) after its third letter. */
const inSource = (text: string) => (path: string) =>
  path.replace(/^\/_img\/u\/(\w{3})/, (_all, head: string) => `/_img/u/${head}${text}`);

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The last letter with its lowest (spare) bit flipped: the same bytes once decoded. */
const flipLast = (segment: string) =>
  segment.slice(0, -1) + ALPHABET[ALPHABET.indexOf(segment.at(-1) ?? 'A') ^ 1];

export const PATH_SPELLINGS: readonly Spelling[] = [
  ['a "!" in the source', inSource('!'), 404],
  ['a "*" in the source', inSource('*'), 404],
  ['a "." in the source', inSource('.'), 404],
  ['a "~" in the source', inSource('~'), 404],
  ['a "\'" in the source', inSource("'"), 404],
  ['a "(" in the source', inSource('('), 404],
  ['a "$" in the source', inSource('$'), 404],
  ['a "+" (base64, not base64url) in the source', inSource('+'), 404],
  ['an escaped "%21" in the source', inSource('%21'), 404],
  ['a trailing "=" on the source', (p) => p.replace(/^(\/_img\/u\/[\w-]+)/, '$1='), 404],
  ['a trailing "==" on the source', (p) => p.replace(/^(\/_img\/u\/[\w-]+)/, '$1=='), 404],
  [
    'a letter of the source escaped',
    (p) =>
      p.replace(/^\/_img\/u\/(\w)/, (_a, c: string) => `/_img/u/%${c.charCodeAt(0).toString(16)}`),
    404,
  ],
  [
    "spare bits set in the source's last letter",
    (p) => p.replace(/^\/_img\/u\/([\w-]+)/, (_a, s: string) => `/_img/u/${flipLast(s)}`),
    404,
  ],
  ['a leading zero in the width', (p) => p.replace(/\/(\d+)\//, '/0$1/'), 404],
  ['a doubled slash', (p) => p.replace('/_img/u/', '/_img/u//'), 400],
  ['a trailing slash', (p) => `${p}/`, 400],
];
