import { createHash } from 'node:crypto';
import { z } from 'zod';
import { mapFieldErrors } from '../auth/failures.ts';
import { localizeUpstreamFields } from '../failures/upstream-text.ts';
import type { FieldKeys } from '../failures/upstream-text.ts';
import type { FieldErrors } from '../failures/fields.ts';
import { isBlank } from '../forms/blank.ts';
import { isEmailAddress, straightenPunctuation } from '../forms/email.ts';
import { textKey } from '../i18n/text-key.ts';
import type { CommentInput } from '../publishing/schema.ts';
import { COMMENT_MAX, characterCount, normaliseText } from './count.ts';

/** The API's limit on a guest's `author_name`. */
const NAME_MAX = 100;

/** The form's fields in their order (the error summary's). */
export const FIELD_ORDER = ['content', 'name', 'email'] as const;
export type CommentField = (typeof FIELD_ORDER)[number];

/** A field as typed; missing or not a string (a hand-made POST) reads as ''. */
const typed = z.string().catch('');

/**
 * What the visitor typed, kept as typed (only line endings normalised) to refill the form:
 * `parentId` is the comment replied to ('' for a new thread), `key` the form's idempotency key
 * ('' until one is minted: `newCommentKey`; anything the site did not mint is ignored).
 */
const CommentValuesSchema = z
  .object({
    content: typed.transform(normaliseText),
    name: typed,
    email: typed,
    parent_id: typed.transform((id) => id.trim()),
    key: typed.transform((key) => (/^[\w-]{16,64}$/.test(key.trim()) ? key.trim() : '')),
  })
  .transform(({ parent_id: parentId, ...values }) => ({ ...values, parentId }));
export type CommentFormValues = z.output<typeof CommentValuesSchema>;

export const readFormValues = (raw: Record<string, unknown>): CommentFormValues =>
  CommentValuesSchema.parse(raw);

export const EMPTY_VALUES: CommentFormValues = readFormValues({});

/**
 * The idempotency key a comment form carries (src/lib/comments/once.ts remembers it): one per post
 * and thread as shown, so a page rendered again from unchanged data is byte for byte the same (and
 * kept in caches as such), while a thread that grew hands out a new key. It needs no secrecy: a
 * cached page gives every reader the same key, and a post is remembered with its author and text.
 */
export function newCommentKey(postSlug: string, shownComments: number): string {
  return createHash('sha256')
    .update(`comment-form\n${postSlug}\n${shownComments}`)
    .digest('base64url')
    .slice(0, 32);
}

// Lenient on purpose: the rules (with friendly messages and the typed text kept) are
// `validateComment`'s, so a mistake re-renders the form instead of failing Astro's input parsing.
/** The comment action's form fields (src/actions/comments.ts). */
export const commentFormInput = z.object({
  /** The post's slug as the API gives it (any characters: the page's address encodes them). */
  post: z.string().min(1).max(1000),
  content: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  parent_id: z.string().optional(),
  /** The form's idempotency key (./once.ts). */
  key: z.string().max(100).optional(),
});

/**
 * The same rules as the API (messages are text keys), checked before a call so a mistake costs no upstream request and no
 * rate-limit point. A signed-in visitor's name and e-mail are ignored (the API takes them from the token).
 */
export function validateComment(
  values: CommentFormValues,
  signedIn: boolean,
): { ok: true; input: CommentInput } | { ok: false; fields: FieldErrors } {
  const fields: FieldErrors = {};
  const content = values.content.trim();
  const length = characterCount(values.content);
  if (values.content === '') fields['content'] = [textKey('comments.error.empty')];
  else if (isBlank(content)) fields['content'] = [textKey('comments.error.blank')];
  else if (length > COMMENT_MAX)
    fields['content'] = [textKey('comments.error.tooLong', { length, max: COMMENT_MAX })];

  const name = values.name.trim();
  const email = straightenPunctuation(values.email.trim());
  if (!signedIn) {
    // A name of invisible characters is no name: the thread would show a blank author.
    if (isBlank(name)) fields['name'] = [textKey('comments.error.nameRequired')];
    else if ([...name].length > NAME_MAX)
      fields['name'] = [textKey('comments.error.nameTooLong', { max: NAME_MAX })];
    if (email === '') fields['email'] = [textKey('comments.error.emailRequired')];
    else if (!isEmailAddress(email)) fields['email'] = [textKey('comments.error.emailInvalid')];
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };

  const input: CommentInput = { content };
  if (values.parentId !== '') input.parent_id = Number(values.parentId);
  if (!signedIn) {
    input.author_name = name;
    input.author_email = email;
  }
  return { ok: true, input };
}

/** The API's 422 field names as the form's fields. */
const API_FIELDS: Record<string, CommentField> = {
  content: 'content',
  author_name: 'name',
  author_email: 'email',
};

/** The form's own words for the upstream rules it recognises (`failures/upstream-text.ts`). */
const COMMENT_KEYS: FieldKeys = {
  content: { required: 'comments.error.empty' },
  name: { required: 'comments.error.nameRequired', tooLong: 'comments.error.nameTooLong' },
  email: { required: 'comments.error.emailRequired', email: 'comments.error.emailInvalid' },
};

/**
 * Upstream 422 `errors` onto the form: first message per field (in the reader's words where a key
 * fits), unknown fields kept for the summary (`other`); `parentRejected`: the replied-to comment
 * was refused (deleted, not approved, other post), so the text goes out as a new comment.
 */
export function mapValidationErrors(errors: Record<string, readonly string[]>) {
  const { parent_id: parent, ...rest } = errors;
  const renamed = Object.entries(rest).map(([name, all]): [string, string[]] => [
    API_FIELDS[name] ?? name,
    all.slice(0, 1),
  ]);
  const { fields, other } = mapFieldErrors(Object.fromEntries(renamed), FIELD_ORDER);
  const parentRejected = Boolean(parent?.[0]);
  return { fields: localizeUpstreamFields(fields, COMMENT_KEYS).fields, parentRejected, other };
}
