// Layer rules of src/ (`npm run lint` runs `depcruise src`). From the top down:
//   app      src/pages, src/components, src/layouts, src/actions, the middleware, src/integrations
//   features src/lib/<area>/ (reading, booking, auth, comments, epaper, streams, static, delivery, site…)
//   clients  src/lib/publishing, src/lib/lodging: one function per API operation
//   upstream src/lib/upstream: HTTP, cache, budget, errors
//   base     src/lib/settings, src/lib/tenants, src/lib/i18n, src/lib/content and the leaf helpers (memo.ts,
//            src/lib/log, failure waits and field errors) that every layer may use
// A layer imports its own and the ones below it, never one above. `.astro` files are not parsed here:
// ESLint's no-restricted-imports covers them (eslint.config.js).

const APP = '^src/(pages|components|layouts|actions|integrations)/|^src/(site-)?middleware[.]ts$';
const CLIENTS = '^src/lib/(publishing|lodging)/';
const UPSTREAM = '^src/lib/upstream/';
const BASE =
  '^src/lib/(settings|tenants|i18n|content)/|^src/lib/log/|^src/lib/memo[.]ts$|^src/lib/failures/(wait|fields)[.]ts$';
const FEATURES = '^src/lib/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A cycle (even by types) means two modules are one: move what both need into a third, lower one.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-mock-in-src',
      comment:
        'The site follows the API contracts, never the contract mock (tests start the mock).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^mock/' },
    },
    {
      name: 'lib-not-to-app',
      comment:
        'src/lib is logic the pages use: it never imports pages, components or layouts (move a shared helper into src/lib).',
      severity: 'error',
      from: { path: FEATURES },
      to: { path: APP },
    },
    {
      name: 'clients-not-to-features',
      comment:
        'The API clients know the upstream and nothing of the features built on them (features pass what a client needs).',
      severity: 'error',
      from: { path: CLIENTS },
      to: { path: FEATURES, pathNot: `${CLIENTS}|${UPSTREAM}|${BASE}` },
    },
    {
      name: 'upstream-below-clients',
      comment:
        'src/lib/upstream is the client core: it serves the clients and never imports them or a feature.',
      severity: 'error',
      from: { path: UPSTREAM },
      to: { path: FEATURES, pathNot: `${UPSTREAM}|${BASE}` },
    },
    {
      name: 'base-below-all',
      comment:
        'Settings, tenants, interface text and the leaf helpers sit below every layer: they import only each other.',
      severity: 'error',
      from: { path: BASE },
      // One exception: tenants.json may carry an upstream profile inline, and its schema names the
      // clients' operations (src/lib/profiles/schema.ts reads them from the clients' operation lists).
      to: { path: '^src/', pathNot: `${BASE}|^src/lib/profiles/schema[.]ts$` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle by types is still a cycle to untangle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '[.]d[.]ts$' },
  },
};
