import { getActionContext } from 'astro:actions';
import { defineMiddleware } from 'astro:middleware';
import { settings } from '../settings/settings.ts';
import { getRedis } from '../upstream/redis.ts';
import { answerForm } from './after-post.ts';

/**
 * Whether the session store takes a kept result now: Redis when `REDIS_URL` is set (the session
 * driver's, src/lib/delivery/session-store.ts), which may be away; files otherwise, always there.
 */
async function sessionsAnswer(): Promise<boolean> {
  const { REDIS_URL } = settings();
  if (!REDIS_URL) return true;
  try {
    await (await getRedis(REDIS_URL)).ping();
    return true;
  } catch {
    return false;
  }
}

/** POST → 303 → GET for every form (./after-post.ts) with Astro's action context; runs after the tenant is known. */
export const formPosts = defineMiddleware((context, next) => {
  if (context.isPrerendered || !context.locals.tenantMatchOrNull) return next();
  const { request, url, locals, session } = context;
  const form = { request, url, locals, session, canKeep: sessionsAnswer };
  return answerForm(form, getActionContext(context), next);
});
