import { getActionContext } from 'astro:actions';
import { defineMiddleware } from 'astro:middleware';
import { answerForm } from './after-post.ts';
import { sessionsAnswer } from './session-check.ts';

/** POST → 303 → GET for every form (./after-post.ts) with Astro's action context; runs after the tenant is known. */
export const formPosts = defineMiddleware((context, next) => {
  if (context.isPrerendered || !context.locals.tenantMatchOrNull) return next();
  const { request, url, locals, session } = context;
  const form = { request, url, locals, session, canKeep: sessionsAnswer };
  return answerForm(form, getActionContext(context), next);
});
