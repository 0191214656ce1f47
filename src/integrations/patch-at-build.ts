import type { AstroIntegration } from 'astro';

/**
 * An integration that rewrites one dependency file as the build bundles it. `patch` returns the new
 * code, or throws when the file no longer reads the way the patch expects: an upgrade then fails the
 * build with the reason instead of quietly dropping the change.
 */
export function patchAtBuild(
  name: string,
  file: RegExp,
  patch: (code: string, id: string) => string,
): AstroIntegration {
  return {
    name,
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name,
                apply: 'build',
                transform: (code: string, id: string) =>
                  file.test(id) ? { code: patch(code, id), map: null } : null,
              },
            ],
          },
        });
      },
    },
  };
}
