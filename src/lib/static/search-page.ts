import type { APIContext } from 'astro';
import { cspHash } from '../delivery/csp.ts';

/** Starts Pagefind's UI on the static copy's search page (src/components/search/StaticSearch.astro). */
export const START_SEARCH = `// \`?q=\` from the header's search form (or a shared link) starts the search at once.
const ui = new PagefindUI({
  element: '#static-search',
  showSubResults: true,
  resetStyles: false,
});
// Pagefind's input has only a title: give it the visible label above (which names no control in the
// markup, where a page without JavaScript has none).
const labelInput = () => {
  const input = document.querySelector('#static-search input');
  const label = document.getElementById('static-q-label');
  if (input) input.id = 'static-q';
  if (input && label) label.htmlFor = 'static-q';
  return Boolean(input);
};
if (!labelInput()) {
  new MutationObserver((_, observer) => labelInput() && observer.disconnect()).observe(
    document.getElementById('static-search'),
    { childList: true, subtree: true },
  );
}
const q = new URLSearchParams(location.search).get('q');
if (q) ui.triggerSearch(q);`;

/**
 * What the static search page's policy must allow (the copy carries it in a <meta>): the inline start
 * script by its hash, and Pagefind's WebAssembly. Called from the page's frontmatter: a component's
 * frontmatter runs after the policy has been written. A resource given replaces Astro's default
 * `'self'`, so it is given again.
 */
export function allowStaticSearch(csp: APIContext['csp'] | undefined): void {
  csp?.insertScriptHash(cspHash(START_SEARCH));
  csp?.insertScriptResource("'self'");
  csp?.insertScriptResource("'wasm-unsafe-eval'");
}
