import { ActionError, defineAction } from 'astro:actions';
import { settings } from '../lib/settings/settings.ts';
import { z } from 'zod';
import { clearSignedIn, getSignedIn } from '../lib/auth/session.ts';
import { readFormValues } from '../lib/comments/form.ts';
import { commentLimit, commentLimiter, limitKey } from '../lib/comments/limit.ts';
import type { ConsumeLimit } from '../lib/comments/limit.ts';
import { postComment } from '../lib/comments/post.ts';
import { logError } from '../lib/log/log.ts';
import { clientIp } from '../lib/request/visitor-limits.ts';
import { publishingFor } from '../lib/site/clients.ts';
const { COMMENTS_PER_IP_PER_10_MIN, REDIS_URL, TRUST_PROXY } = settings();

let limiter: ConsumeLimit | undefined;
const consume: ConsumeLimit = (key) => {
  limiter ??= commentLimiter(commentLimit(COMMENTS_PER_IP_PER_10_MIN), REDIS_URL);
  return limiter(key);
};

// Lenient on purpose: the rules (with friendly messages and the typed text kept) live in
// `lib/comments/form.ts`, so a mistake re-renders the form instead of failing Astro's input parsing.
const input = z.object({
  post: z
    .string()
    .max(300)
    .regex(/^[\w-]+$/),
  content: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  parent_id: z.string().optional(),
});

export const commentActions = {
  /** Posts a comment on `post` as the signed-in subscriber (published) or as a guest (moderated). */
  postComment: defineAction({
    accept: 'form',
    input,
    handler: async (form, ctx) => {
      const tenant = ctx.locals.site?.tenant;
      if (!tenant?.features.comments) {
        throw new ActionError({ code: 'NOT_FOUND', message: 'Comments are not offered here.' });
      }
      // The only place the session is read: the post page itself stays session-free and cacheable.
      const signedIn = await getSignedIn(ctx.session, tenant.id);
      const outcome = await postComment(
        {
          postSlug: form.post,
          values: readFormValues(form),
          token: signedIn?.token ?? null,
          limitKey: limitKey(tenant.id, clientIp(ctx, TRUST_PROXY)),
        },
        {
          client: (token) => publishingFor(tenant, token),
          consume,
          onUnexpected: (error) =>
            logError(
              'comments.post.failed',
              { tenant: tenant.id, path: ctx.url.pathname, requestId: ctx.locals.requestId },
              error,
            ),
        },
      );
      // The upstream refused the stored token (revoked, expired): forget it, so the next attempt
      // can go out as a guest instead of failing the same way.
      if (!outcome.ok && outcome.kind === 'signed-out') await clearSignedIn(ctx.session, tenant.id);
      return outcome;
    },
  }),
};
