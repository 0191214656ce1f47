import type { AstroIntegration } from 'astro';

/**
 * The image route at `/_img/…`. Astro never routes files whose name starts with `_`, so the route is
 * injected; the underscore keeps it clear of tenant ids and page names.
 */
export function imageRoute(): AstroIntegration {
  return {
    name: 'masthead:image-route',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        injectRoute({
          pattern: '/_img/[...path]',
          entrypoint: new URL('./image-endpoint.ts', import.meta.url),
          prerender: false,
        });
      },
    },
  };
}
