import { ActionError, defineAction } from 'astro:actions';
import { settings } from '../lib/settings/settings.ts';
import { getSignedIn, signOut, takeSignOut } from '../lib/auth/session.ts';
import { commentFormInput, readFormValues } from '../lib/comments/form.ts';
import { commentLimiter, limitKey } from '../lib/comments/limit.ts';
import { postComment } from '../lib/comments/post.ts';
import { postOnce, rememberedName } from '../lib/comments/once.ts';
import { invalidatePostComments } from '../lib/freshness/bus.ts';
import { logError, requestContext } from '../lib/log/log.ts';
import { publishingFor } from '../lib/services/clients.ts';
const { COMMENTS_PER_IP_PER_10_MIN, REDIS_URL } = settings();

// The limiter itself is made on the first comment (visitorLimiter).
const consume = commentLimiter(COMMENTS_PER_IP_PER_10_MIN, REDIS_URL);

const once = postOnce(REDIS_URL);

export const commentActions = {
  /** Posts a comment on `post` as the signed-in subscriber (published) or as a guest (moderated). */
  postComment: defineAction({
    accept: 'form',
    input: commentFormInput,
    handler: async (form, ctx) => {
      const tenant = ctx.locals.tenantMatchOrNull?.tenant;
      if (!tenant?.features.comments) {
        throw new ActionError({ code: 'NOT_FOUND', message: 'Comments are not offered here.' });
      }
      // The only place the session is read: the post page itself stays session-free and cacheable.
      const signedIn = await getSignedIn(ctx.session, tenant);
      const values = readFormValues(form);
      const outcome = await postComment(
        {
          postSlug: form.post,
          values,
          token: signedIn?.token ?? null,
          signedOutSince: !signedIn && (await takeSignOut(ctx.session, ctx.cookies, tenant)),
          limitKey: limitKey(tenant.id, ctx.locals.visitor.address),
          remember:
            values.key &&
            rememberedName({
              tenant: tenant.id,
              post: form.post,
              key: values.key,
              author: signedIn
                ? `user:${signedIn.user.id}`
                : `guest:${values.name}|${values.email}`,
              content: values.content.trim(),
              parentId: values.parentId,
            }),
        },
        {
          client: (token) => publishingFor(tenant, token),
          consume,
          once,
          onUnexpected: (error) => logError('comments.post.failed', requestContext(ctx), error),
        },
      );
      // The upstream refused the stored token (revoked, expired): forget it, so the next attempt
      // can go out as a guest instead of failing the same way.
      if (!outcome.ok && outcome.kind === 'signed-out') await signOut(ctx.session, tenant);
      // Published at once: the post's cached thread goes on every server and at the edge, so the
      // reader finds it wherever they land (the change watcher's way: src/lib/freshness/).
      if (outcome.ok && outcome.status === 'approved')
        await invalidatePostComments(tenant, form.post);
      return outcome;
    },
  }),
};
