import { existsSync, readdirSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import send from 'send';
import { brotliBytes, gzipBytes, MIN_COMPRESS_BYTES, negotiateEncoding } from './compression.ts';
import { constants } from 'node:zlib';
import { settings } from '../settings/settings.ts';
import { IMMUTABLE } from './policy.ts';

/**
 * The text assets a build precompresses (the kinds the server compresses on the fly), with the
 * content type their `.br`/`.gz` copy is served with (it must say what it decodes to).
 */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset of `dir` worth compressing, at the
 * highest levels (done once per build, so the server only streams bytes). Returns how many.
 */
export async function precompressAssets(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !Object.hasOwn(TYPES, extname(path))) continue;
    const content = await readFile(path);
    if (content.length < MIN_COMPRESS_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotliBytes(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzipBytes(content, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
    count += 1;
  }
  return count;
}

/** A file of the client build: its path under the client directory and its encoded copies. */
export interface StaticFile {
  file: string;
  br: boolean;
  gz: boolean;
}

/**
 * Every file of the client build by URL path, read once at start: a page request then reaches the
 * app without touching the disk (the adapter's own handler stats the path of every request).
 * A directory's `index.html` answers for `/dir` and `/dir/`; dot files only under `.well-known`.
 */
export function listStaticFiles(clientDir: string): Map<string, StaticFile> {
  const found = new Map<string, StaticFile>();
  // No client directory: every request goes to the app.
  if (!existsSync(clientDir)) return found;
  for (const entry of readdirSync(clientDir, { withFileTypes: true, recursive: true })) {
    const file = join(entry.parentPath, entry.name);
    const urlPath = '/' + relative(clientDir, file).split(sep).join('/');
    const hidden = urlPath.replace(/^\/\.well-known\//, '/').includes('/.');
    // An encoded copy is served only for its original (a lone `x.js.br` is never served).
    if (!entry.isFile() || hidden || /\.(br|gz)$/.test(urlPath)) continue;
    const known = { file: urlPath, br: existsSync(`${file}.br`), gz: existsSync(`${file}.gz`) };
    found.set(urlPath, known);
    if (basename(urlPath) === 'index.html') {
      const dir = dirname(urlPath);
      found.set(dir, known);
      if (dir !== '/') found.set(`${dir}/`, known);
    }
  }
  return found;
}

export type StaticHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Serves the files known at start (with their brotli/gzip copies when `compression`), and hands
 * every other request to `next` at once. Hashed `/_astro/` assets are cached for a year.
 * Not sirv (issue 36): it serves an encoded copy to `br;q=0`, byte ranges of encoded copies, any
 * method, and answers no `If-Modified-Since`; `send` (the Node adapter's own) does those right.
 */
export function staticHandler(clientDir: string, options: { compression: boolean }): StaticHandler {
  const files = listStaticFiles(clientDir);
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url) return next();
    const query = req.url.indexOf('?');
    let pathname: string;
    try {
      pathname = decodeURIComponent(query < 0 ? req.url : req.url.slice(0, query));
    } catch {
      return next();
    }
    const asset = files.get(pathname);
    if (!asset) return next();
    if (asset.br || asset.gz) res.setHeader('Vary', 'Accept-Encoding');
    const encoding = options.compression
      ? negotiateEncoding(req.headers['accept-encoding'], asset)
      : null;
    const path = encoding ? `${asset.file}.${encoding === 'br' ? 'br' : 'gz'}` : asset.file;
    // No ranges of an encoded copy: a byte range of it is not what a client asking for one expects.
    const stream = send(req, path, { root: clientDir, acceptRanges: !encoding, dotfiles: 'allow' });
    stream.on('headers', (response: ServerResponse) => {
      if (encoding) {
        response.setHeader(
          'Content-Type',
          TYPES[extname(asset.file)] ?? 'application/octet-stream',
        );
        response.setHeader('Content-Encoding', encoding);
      }
      if (asset.file.startsWith('/_astro/')) response.setHeader('Cache-Control', IMMUTABLE);
    });
    // Gone since start (a redeploy in place): the app answers, as for any unknown path.
    stream.on('error', () => {
      res.removeHeader('Content-Encoding');
      next();
    });
    stream.pipe(res);
  };
}

/**
 * Stands in for @astrojs/node's `serve-static.js` in the built server (src/integrations/static-files.ts),
 * so `node dist/server/entry.mjs` and `npm start` alike serve the client files listed at start.
 * The client directory is found as the adapter finds it: `options.client` relative to
 * `options.server`, from where this code runs (a moved `dist/` still works). `headersMap` is unused:
 * every page renders on demand and sends its own CSP.
 */
export function createStaticHandler(
  _app: unknown,
  options: { client: string; server: string },
  _headersMap?: unknown,
): StaticHandler {
  const server = fileURLToPath(options.server);
  let dir = dirname(fileURLToPath(import.meta.url));
  while (basename(dir) !== basename(server) && dirname(dir) !== dir) dir = dirname(dir);
  const client =
    basename(dir) === basename(server)
      ? join(dir, relative(server, fileURLToPath(options.client)))
      : fileURLToPath(options.client);
  return staticHandler(client, { compression: settings().COMPRESSION });
}
