import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';

/**
 * Dependency files rewritten as the build bundles them. Each edit must find its text: a file that
 * no longer reads that way (an upgrade) fails the build with the reason, instead of quietly
 * dropping the change.
 */
interface Patch {
  /** Why, in one line: said when the file no longer reads as expected. */
  why: string;
  file: RegExp;
  edits: [find: string | RegExp, replace: string][];
}

const ourFile = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));
const HASHES = [
  ['style', 'extraStyleHashes.push(await generateCspDigest(style.children, cspAlgorithm));'],
  ['script', 'extraScriptHashes.push(await generateCspDigest(script.children, cspAlgorithm));'],
] as const;

const PATCHES: readonly Patch[] = [
  {
    // A request the adapter cannot turn into a `Request` (`Host: evil@site`) is the client's
    // fault: a 400 with a one-line log, not a 500 with a stack, before any middleware runs.
    why: 'bad-request-400: a malformed request is answered 400',
    file: /@astrojs\/node\/dist\/serve-app\.js$/,
    edits: [
      [
        /logger\.error\(`Could not render \$\{req\.url\}`\);\s*console\.error\(err\);\s*res\.statusCode = 500;\s*res\.end\("Internal Server Error"\);/,
        `console.warn(JSON.stringify({ level: "warn", event: "request.malformed", time: new Date().toISOString(), message: err instanceof Error ? err.message : String(err) }));
      res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
      res.end("Bad request.");`,
      ],
    ],
  },
  {
    // Invalid settings refuse the start: the built server checks them, the tenants and secrets
    // files and logs the tenants' start-up lines before the adapter sets anything up or listens
    // (`/_health` is a route of its own that answers 503 naming them: ./routes.ts).
    why: 'settings-check: the server checks its settings first',
    file: /@astrojs\/node\/dist\/server\.js$/,
    edits: [
      [
        /^/,
        ['../lib/settings/startup-check.ts', '../lib/services/startup-lines.ts']
          .map((module) => `import ${ourFile(module)};\n`)
          .join(''),
      ],
    ],
  },
  {
    // The adapter's own static handler stats the path of every request on disk before a page
    // renders: Masthead's (src/lib/delivery/static-files.ts) answers from a list made at start.
    why: 'static-files: the standalone server uses src/lib/delivery/static-files.ts',
    file: /@astrojs[\\/]node[\\/]dist[\\/]standalone\.js$/,
    edits: [
      ['from "./serve-static.js"', `from ${ourFile('../lib/delivery/static-files.ts')}`],
      // A path with a broken escape (`/x/%`) goes on to the middleware, which answers it with the
      // tenant's 400 page (src/lib/request/refusals.ts), not a bare "Bad request.".
      [/try \{\s*decodeURI\(req\.url\);\s*\} catch \{[^}]*\}/, ''],
    ],
  },
  {
    // Astro hashes every head stylesheet and script on every render, external ones too, whose
    // content is empty (5–7 % of a post or home render): only elements with content are hashed.
    why: 'csp-empty-hashes: head elements without content are not hashed',
    file: /astro[\\/]dist[\\/]core[\\/]fetch[\\/]fetch-state\.js$/,
    edits: HASHES.map(([element, line]) => [line, `if (${element}.children) ${line}`]),
  },
];

function patched(code: string, id: string, patch: Patch): string {
  return patch.edits.reduce((out, [find, replace]) => {
    const found = typeof find === 'string' ? out.includes(find) : find.test(out);
    if (!found)
      throw new Error(
        `${id} changed (src/integrations/patches.ts, ${patch.why}): update the patch`,
      );
    return out.replace(find, replace);
  }, code);
}

export function dependencyPatches(): AstroIntegration {
  const name = 'masthead:dependency-patches';
  const transform = (code: string, id: string) => {
    const patch = PATCHES.find(({ file }) => file.test(id));
    return patch ? { code: patched(code, id, patch), map: null } : null;
  };
  return {
    name,
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [{ name, apply: 'build', transform }] } });
      },
    },
  };
}
