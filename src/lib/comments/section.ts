import type { KeyPart } from '../render/fragments.ts';
import type { PublishingClient } from '../publishing/client.ts';
import { asSpare } from '../upstream/visitor.ts';
import { unlessRefused } from '../reading/loaders.ts';
import { parsePage } from '../reading/pagination.ts';
import { EMPTY_VALUES } from './form.ts';
import type { FieldErrors } from '../failures/fields.ts';
import type { CommentFormValues } from './form.ts';
import type { CommentOutcome, FailureKind } from './post.ts';
import { countComments, findComment, parseReplyId, threadOf } from './thread.ts';
import type { ThreadNode } from './thread.ts';

type Posted = Extract<CommentOutcome, { ok: true }>;

/** Top-level comments per page (the API's maximum). */
const COMMENTS_PER_PAGE = 50;
/** The query parameter of older/newer comment pages. */
export const PAGE_PARAM = 'comments-page';

export interface CommentFormState {
  values: CommentFormValues;
  fields: FieldErrors;
  /** A failed submission: its kind and the sentence for the top of the form. */
  error: { kind: FailureKind; message: string } | null;
  /** A successful submission (`content`: what was posted, shown while it awaits moderation). */
  success: (Omit<Posted, 'ok'> & { listed: boolean }) | null;
  /** The comment being answered (from `?reply=` or the submitted form), when it is listed. */
  replyTo: { id: string; authorName: string } | null;
}

export interface CommentsRequest {
  /** `?reply=` of the page address. */
  reply: string | null;
  /** `?comments-page=` of the page address. */
  page: string | null;
  /** The result of a form submission on this request, if any. */
  outcome: CommentOutcome | undefined;
  /** What was typed before signing in, back in the form (no submission: no notice). */
  draft?: CommentFormValues | undefined;
}

/**
 * Everything the comments section renders. A signed-in comment is published at once, so after one
 * the list is read fresh (past the data cache); otherwise the cached list serves.
 */
export async function loadCommentsView(
  client: PublishingClient,
  postSlug: string,
  request: CommentsRequest,
  onOutage?: (error: unknown) => void,
) {
  const { outcome } = request;
  const fresh = outcome?.ok === true && outcome.status === 'approved';
  const current = parsePage(request.page, 5) ?? 1;

  const readPage = (n: number) => {
    const read = () =>
      client.listComments(postSlug, { page: n, perPage: COMMENTS_PER_PAGE }, { fresh });
    // A plain visit's thread is spare (`asSpare`): while the budget is short the post gets the
    // call, and the page says the comments are unavailable; after a submission it is the point.
    return outcome ? read() : asSpare(read);
  };
  // A stale link past the last page (comments removed since): the last page, not "no comments yet".
  const readThread = async () => {
    const first = await readPage(current);
    const past = first.items.length === 0 && current > first.page.last && first.page.last >= 1;
    return past ? readPage(first.page.last) : first;
  };
  const listed = await unlessRefused(readThread, null, onOutage);
  const thread = listed ? threadOf(listed.items) : [];
  /** Comments on this page, replies included. */
  const count = countComments(thread);
  /** `counted`: `last` is the last page (else the last known: the API does not count, `pageInfo`). */
  const page = listed
    ? {
        current: listed.page.current,
        last: Math.max(listed.page.last, 1),
        counted: listed.page.total !== undefined,
      }
    : { current, last: current, counted: true };
  return {
    thread,
    count,
    /** The heading's "Comments (N)" (`threadTotal`); null when a longer thread's answer gave none. */
    total: listed ? threadTotal(listed.page.total, listed.items.length, count, page.last) : 0,
    page,
    /** The list could not be read (upstream down): the form still shows. */
    unavailable: !listed,
    form: formState(thread, request),
  };
}
export type CommentsView = Awaited<ReturnType<typeof loadCommentsView>>;

/**
 * How many comments the thread has (docs/api-assumptions.md): on one page, every comment shown,
 * replies included; on several, the API's total (its top-level comments: the replies on the other
 * pages are not read), or null when the answer had none (`pageInfo` fills it with the page's items).
 */
function threadTotal(apiTotal: number | undefined, shown: number, all: number, lastPage: number) {
  if (lastPage <= 1) return Math.max(all, apiTotal ?? 0);
  return apiTotal !== undefined && apiTotal > shown ? apiTotal : null;
}

/** The form after a submission (refilled or cleared) or on a plain visit (empty, maybe replying). */
export function formState(
  thread: readonly ThreadNode[],
  request: Pick<CommentsRequest, 'reply' | 'outcome' | 'draft'>,
): CommentFormState {
  const { outcome } = request;
  const none = { fields: {}, error: null, success: null, replyTo: null };
  if (outcome?.ok === true) {
    const { status, message, id, content } = outcome;
    const listed = findComment(thread, id) !== null;
    return { ...none, values: EMPTY_VALUES, success: { status, message, id, listed, content } };
  }
  const typed = outcome ? outcome.values : request.draft;
  const node = findComment(thread, parseReplyId(typed ? typed.parentId : request.reply));
  const replyTo = node && { id: node.id, authorName: node.authorName };
  // A reply target that is no longer listed is dropped: the text goes out as a new comment.
  const values = { ...(typed ?? EMPTY_VALUES), parentId: replyTo?.id ?? '' };
  if (!outcome) return { ...none, values, replyTo };
  const error = { kind: outcome.kind, message: outcome.message };
  return { ...none, values, replyTo, fields: outcome.fields, error };
}

/**
 * What the comments section shows, for a rendered copy to be reused (src/lib/render/fragments.ts),
 * or null when it shows more than that: a reply target, a submission's notices, typed text, or
 * the "unavailable" notice (no list object to name).
 */
export function commentsShown(view: CommentsView): KeyPart[] | null {
  const { form } = view;
  const typed = Object.values(form.values).some(Boolean);
  const untouched = !form.error && !form.success && !form.replyTo && !typed;
  if (!untouched || view.unavailable) return null;
  return [view.thread, view.page.current, view.page.last];
}

/**
 * The post's query as its page shows it (`?comments-page=` of the page listed, absent for the
 * first; `?reply=` of a listed comment), or `null` when `params` already say that. A made-up value
 * (`?reply=abc`, `?reply=123456`, `?comments-page=0`, past the last page) is redirected to it, so
 * no cache holds one copy of the post per value. Only for a plain visit with the thread read.
 */
export function shownCommentsQuery(
  view: CommentsView,
  params: URLSearchParams,
): URLSearchParams | null {
  const { current, last, counted } = view.page;
  // A thread with no comments has no later page either (the API then says its last is 0).
  const page = counted ? Math.min(current, last) : current;
  const shown = [
    [PAGE_PARAM, page > 1 ? String(page) : null],
    ['reply', view.form.replyTo?.id ?? null],
  ] as const;
  if (shown.every(([name, value]) => params.get(name) === value)) return null;
  const query = new URLSearchParams(params);
  for (const [name, value] of shown) {
    if (value === null) query.delete(name);
    else query.set(name, value);
  }
  return query;
}
