import type { AstroIntegration } from 'astro';
import { patchAtBuild } from './patch-at-build.ts';

/**
 * The Node adapter answers a request it cannot even turn into a `Request` (e.g. `Host: evil@site`,
 * which makes a URL with credentials) with a plain 500 and a logged stack, before any middleware
 * runs. That input is the client's fault: this build-time patch makes it a 400 with a one-line log.
 */
const MODULE = /@astrojs\/node\/dist\/serve-app\.js$/;
const FAILURE =
  /logger\.error\(`Could not render \$\{req\.url\}`\);\s*console\.error\(err\);\s*res\.statusCode = 500;\s*res\.end\("Internal Server Error"\);/;
const REPLACEMENT = `console.warn(JSON.stringify({ level: "warn", event: "request.malformed", time: new Date().toISOString(), message: err instanceof Error ? err.message : String(err) }));
      res.statusCode = 400;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end("Bad request.");`;

export function badRequest400(): AstroIntegration {
  return patchAtBuild('masthead:bad-request-400', MODULE, (code) => {
    if (!FAILURE.test(code)) {
      throw new Error(
        'masthead:bad-request-400: @astrojs/node changed; update src/integrations/bad-request-400.ts',
      );
    }
    return code.replace(FAILURE, REPLACEMENT);
  });
}
