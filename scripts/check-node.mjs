// Astro 7 needs Node >= 22.12. npm scripts use the pinned node from node_modules/.bin; say so clearly if not.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `Masthead needs Node >= 22.12 (this is ${process.version}). Run it through npm (npm run dev / npm test), which uses the Node 24 pinned in devDependencies, after npm install.`,
  );
  process.exit(1);
}
