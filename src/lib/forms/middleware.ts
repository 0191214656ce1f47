import { getActionContext } from 'astro:actions';
import { defineMiddleware } from 'astro:middleware';
import {
  KEPT_SECONDS,
  REDIRECTED_ACTIONS,
  SENT_PARAM,
  keepFormValues,
  keptKey,
  keptValues,
  landingAddress,
  newResultId,
  parseResultId,
  readKept,
} from './after-post.ts';

function seeOther(location: string): Response {
  return new Response(null, {
    status: 303,
    headers: { Location: location, 'Cache-Control': 'no-store' },
  });
}

/**
 * POST → 303 → GET for the forms of `REDIRECTED_ACTIONS` (./after-post.ts says how), as Astro's
 * Actions guide does it: `getActionContext` runs the action here, the session keeps the result, and
 * `setActionResult` hands it to the page on the GET. Runs after the tenant is known.
 */
export const formPosts = defineMiddleware(async (context, next) => {
  if (context.isPrerendered || !context.locals.site) return next();
  const { action, setActionResult, serializeActionResult } = getActionContext(context);
  const { session, locals, url } = context;
  const pathname = locals.tenantMatch.pathname;

  if (action?.calledFrom === 'form' && REDIRECTED_ACTIONS.has(action.name) && session) {
    const form = await context.request
      .clone()
      .formData()
      .catch(() => new FormData());
    const result = await action.handler();
    const id = newResultId();
    // The session as it is after the action (a sign-in gives it a new id: the result goes there).
    session.set(
      keptKey(id),
      { action: action.name, result: serializeActionResult(result), values: keptValues(form) },
      { ttl: KEPT_SECONDS },
    );
    return seeOther(landingAddress(pathname, url.searchParams, id, locals.href));
  }

  if (context.request.method !== 'GET' || !url.searchParams.has(SENT_PARAM)) return next();
  const id = parseResultId(url.searchParams.get(SENT_PARAM));
  const kept = id && session ? readKept(await session.get(keptKey(id))) : undefined;
  // Taken already (a reload, Back), expired, or never ours: the page itself, without the id.
  if (!id || !kept || !session) {
    return seeOther(landingAddress(pathname, url.searchParams, null, locals.href));
  }
  session.delete(keptKey(id));
  setActionResult(kept.action, kept.result as Parameters<typeof setActionResult>[1]);
  keepFormValues(locals, kept.values);
  const response = await next();
  // Personal whatever the page says: it shows this visitor's result and typed text.
  response.headers.set('Cache-Control', 'private, no-store');
  return response;
});
