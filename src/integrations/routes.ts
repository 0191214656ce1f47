import type { AstroIntegration } from 'astro';

/** Routes Astro does not find: it never routes a file whose name starts with `_`. */
const ROUTES = [
  // Pictures; the underscore keeps the route clear of tenant ids and page names.
  { pattern: '/_img/[...path]', entrypoint: './image-endpoint.ts' },
  // For load balancers (any method): answers even when a setting is invalid (./patches.ts).
  { pattern: '/_health', entrypoint: './health-endpoint.ts' },
];

export function injectedRoutes(): AstroIntegration {
  return {
    name: 'masthead:routes',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        for (const { pattern, entrypoint } of ROUTES) {
          injectRoute({
            pattern,
            entrypoint: new URL(entrypoint, import.meta.url),
            prerender: false,
          });
        }
      },
    },
  };
}
