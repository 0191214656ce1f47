import { defineMiddleware } from 'astro:middleware';
import { logProfileLines } from '../profiles/status.ts';
import { getTenants } from '../tenants/registry.ts';
import { runForVisitor } from '../upstream/runtime.ts';
import { siteUpstream } from '../services/clients.ts';
import { logSecretsLineOnce } from '../services/secrets-line.ts';
import { currentVisitor } from '../upstream/visitor.ts';

/**
 * Renders the page as one visitor (address, or crawler by user agent) with one upstream deadline:
 * cache misses spend that visitor's share of the shared budget, and no call outlives the deadline.
 */
export const upstreamVisitor = defineMiddleware((context, next) => {
  // A rewrite (to /404, /503) runs the middleware again: it keeps the page's visitor and deadline.
  if (context.isPrerendered || currentVisitor()) return next();
  // Said at start-up by the built server (src/lib/services/startup-lines.ts); `astro dev` says it here,
  // on its first request (each is logged once per process).
  const upstream = siteUpstream();
  logSecretsLineOnce();
  logProfileLines(getTenants());
  const userAgent = context.request.headers.get('user-agent');
  return runForVisitor(upstream, context.locals.visitor.address, userAgent, () => next());
});
