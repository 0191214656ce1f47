import type { AstroIntegration } from 'astro';
import { patchAtBuild } from './patch-at-build.ts';

const FETCH_STATE = /astro[\\/]dist[\\/]core[\\/]fetch[\\/]fetch-state\.js$/;
const HASHES = [
  'extraStyleHashes.push(await generateCspDigest(style.children, cspAlgorithm));',
  'extraScriptHashes.push(await generateCspDigest(script.children, cspAlgorithm));',
];

/**
 * Astro hashes the content of every head stylesheet and script on every render, external ones too,
 * whose content is empty: a WebCrypto digest of '' per file and page (5–7 % of a post or home
 * render) and the hash of nothing in the policy. Only elements with content are hashed; a file is
 * allowed by `'self'` anyway.
 */
export function cspEmptyHashes(): AstroIntegration {
  return patchAtBuild('masthead:csp-empty-hashes', FETCH_STATE, (code, id) => {
    const [style = '', script = ''] = HASHES;
    if (!code.includes(style) || !code.includes(script)) {
      throw new Error(
        `astro changed: ${id} no longer hashes head elements as src/integrations/csp-empty-hashes.ts expects`,
      );
    }
    return code
      .replace(style, `if (style.children) ${style}`)
      .replace(script, `if (script.children) ${script}`);
  });
}
