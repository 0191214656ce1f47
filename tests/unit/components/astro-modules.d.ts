// ESLint's TypeScript service cannot open .astro files; this types their default export for it.
// `astro check` resolves the real components, which take precedence over this wildcard.
declare module '*.astro' {
  const Component: import('astro/runtime/server/index.js').AstroComponentFactory;
  export default Component;
}
