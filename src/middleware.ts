import { defineMiddleware } from 'astro:middleware';

// The site's middleware reads `settings()`, which throws on load when a setting is invalid:
// loaded on first use, and never for `/_health`, so that route can still say which setting is wrong.
let loaded: Promise<typeof import('./middleware-chain.ts')> | undefined;
const site = () => (loaded ??= import('./middleware-chain.ts'));

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.url.pathname === '/_health') return next();
  const { onRequest: siteMiddleware } = await site();
  // Astro's types allow a handler to return nothing; a `sequence` never does (it ends in `next()`).
  return (await siteMiddleware(context, next)) ?? next();
});
