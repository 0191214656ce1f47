import { createHash } from 'node:crypto';
import idle from 'astro/runtime/client/idle.prebuilt.js';
import load from 'astro/runtime/client/load.prebuilt.js';
import media from 'astro/runtime/client/media.prebuilt.js';
import only from 'astro/runtime/client/only.prebuilt.js';
import visible from 'astro/runtime/client/visible.prebuilt.js';
import { memo } from '../memo.ts';

/**
 * CSP hash of an inline `<style>` or `<script>` body, so it needs no `'unsafe-inline'`. The site hashes
 * only its own few inline bodies (themes, the static search script).
 */
export const cspHash = memo(
  (content: string): `sha256-${string}` =>
    `sha256-${createHash('sha256').update(content).digest('base64')}`,
  { max: 1000 },
);

/**
 * Astro lists the hashes of its hydration directives (`client:load`, `client:idle`…) in every
 * page's `script-src`. None can run here: the site has no UI framework renderer, so no component
 * hydrates (islands are custom elements in script files). Leaving them out keeps the header short.
 */
const HYDRATION_HASHES = new Set([idle, load, media, only, visible].map((c) => `'${cspHash(c)}'`));

/**
 * The policy without hashes of scripts no page of this site can contain; everything else kept.
 * Remembered: a page type of a tenant sends the same policy on every render.
 */
export const withoutUnusedHashes = memo(
  (policy: string): string =>
    policy
      .split(';')
      .map((directive) =>
        directive
          .split(' ')
          .filter((token) => !HYDRATION_HASHES.has(token))
          .join(' '),
      )
      .join(';'),
  { max: 256 },
);

/** Trims the response's `Content-Security-Policy`, if it has one. */
export function trimPolicy(headers: Headers): void {
  const policy = headers.get('Content-Security-Policy');
  if (policy) headers.set('Content-Security-Policy', withoutUnusedHashes(policy));
}
