import type { AstroGlobal } from 'astro';
import { actions, isInputError } from 'astro:actions';
import type { I18n } from '../i18n/index.ts';
import { localize, localizeFields } from '../i18n/text.ts';
import { textKey } from '../i18n/text-key.ts';
import { keptFormValues } from '../forms/after-post.ts';
import { logWarn } from '../log/log.ts';
import { publishingFor } from '../services/clients.ts';
import { readFormValues } from './form.ts';
import { FAILURE_STATUS } from './post.ts';
import type { CommentOutcome } from './post.ts';
import { PAGE_PARAM, loadCommentsView } from './section.ts';

/** The outcome's messages (text keys or the API's own text) in the reader's language. */
function localizeOutcome(i18n: I18n, outcome: CommentOutcome): CommentOutcome {
  const message = localize(i18n, outcome.message);
  if (outcome.ok) return { ...outcome, message };
  return { ...outcome, message, fields: localizeFields(i18n, outcome.fields) };
}

/** The post page's comments: the action's outcome (if this is a submission) and the thread. */
async function commentsForPage(Astro: AstroGlobal, postSlug: string) {
  const { tenant } = Astro.locals;
  if (!tenant.features.comments) return null;

  const result = Astro.getActionResult(actions.postComment);
  let outcome: CommentOutcome | undefined = result?.data;
  if (result?.error) {
    // Astro refused the submission itself (malformed form, feature off): keep the text anyway.
    outcome = {
      ok: false,
      kind: 'error',
      message: isInputError(result.error)
        ? textKey('comments.error.reload')
        : textKey('comments.error.retry'),
      fields: {},
      // What the POST kept of the form: the action failed before it could echo it.
      values: readFormValues(keptFormValues(Astro.locals) ?? {}),
    };
  } else if (outcome && !outcome.ok) {
    Astro.response.status = FAILURE_STATUS[outcome.kind];
    if (outcome.retryAfterSeconds !== undefined)
      Astro.response.headers.set('Retry-After', String(outcome.retryAfterSeconds));
  }

  const view = await loadCommentsView(
    publishingFor(tenant),
    postSlug,
    {
      reply: Astro.url.searchParams.get('reply'),
      page: Astro.url.searchParams.get(PAGE_PARAM),
      outcome: outcome && localizeOutcome(Astro.locals.i18n, outcome),
      // Kept while the reader signed in (`SIGN_IN_FIELD`): the form as they left it.
      draft: result && !outcome ? readFormValues(keptFormValues(Astro.locals) ?? {}) : undefined,
    },
    () => logWarn('comments.list.unavailable', { tenant: tenant.id, path: Astro.url.pathname }),
  );
  // A form submission's page is personal (private, never cached).
  return { view, submitted: result !== undefined };
}

/**
 * The post page's comments, read while the post loads: they need only the address's slug. Call
 * the returned function with the post's own slug; another slug (an old address) reads again.
 */
export function commentsAlongside(Astro: AstroGlobal, requestedSlug: string) {
  const early = commentsForPage(Astro, requestedSlug);
  // The post may fail first (404, outage): this read's own failure is then nobody's concern.
  early.catch(() => undefined);
  return (postSlug: string) =>
    postSlug === requestedSlug ? early : commentsForPage(Astro, postSlug);
}
