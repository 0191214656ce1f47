// `npm start`: the built Astro server (adapter handler) behind a small HTTP server that answers
// text assets with the brotli/gzip copies the build wrote beside them (`COMPRESSION=false`: never).
// Pages are compressed by the site's own middleware. HOST, PORT and MASTHEAD_OUT_DIR as for entry.mjs;
// every setting is read (and refused) by src/lib/settings/, like the server's own.
import { readdirSync } from 'node:fs';
import http from 'node:http';
import { extname, join, relative, resolve, sep } from 'node:path';
import send from 'send';
import './check-node.mjs';
import { settingsOrExit, tellAdapter } from '../src/lib/settings/settings.ts';

const TYPES = {
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

const { MASTHEAD_OUT_DIR, COMPRESSION: compression, HOST, PORT } = settingsOrExit();
const outDir = resolve(MASTHEAD_OUT_DIR);
const clientDir = join(outDir, 'client');

/** URL path → which encoded copies exist; only files found at start-up can ever be served here. */
function findPrecompressed(dir) {
  const found = new Map();
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(br|gz)$/.test(entry.name)) {
        const original = path.slice(0, -3);
        const urlPath = '/' + relative(dir, original).split(sep).join('/');
        const known = found.get(urlPath) ?? { file: urlPath, br: false, gz: false };
        known[path.endsWith('.br') ? 'br' : 'gz'] = true;
        found.set(urlPath, known);
      }
    }
  };
  try {
    walk(dir);
  } catch {
    // No client directory (nothing precompressed): every request goes to the adapter.
  }
  return found;
}

/** `br` or `gzip` as the client accepts them (q=0 refuses), brotli first. */
function pickEncoding(acceptEncoding, available) {
  const weights = new Map();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name) weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name) => weights.get(name) ?? weights.get('*') ?? 0;
  if (available.br && weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (available.gz && weight('gzip') > 0) return 'gzip';
  return null;
}

const precompressed = compression ? findPrecompressed(clientDir) : new Map();

tellAdapter({ ASTRO_NODE_AUTOSTART: 'disabled' });
const { handler, options } = await import(join(outDir, 'server', 'entry.mjs'));

function servePrecompressed(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const pathname = (req.url ?? '/').split('?')[0];
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  const asset = precompressed.get(decoded);
  if (!asset) return false;
  const encoding = pickEncoding(req.headers['accept-encoding'], asset);
  res.setHeader('Vary', 'Accept-Encoding');
  if (!encoding) return false;
  // No ranges: a byte range of the encoded copy is not what a client asking for one expects.
  const stream = send(req, `${asset.file}.${encoding === 'br' ? 'br' : 'gz'}`, {
    root: clientDir,
    acceptRanges: false,
  });
  stream.on('headers', (response) => {
    response.setHeader('Content-Type', TYPES[extname(asset.file)] ?? 'application/octet-stream');
    response.setHeader('Content-Encoding', encoding);
    if (asset.file.startsWith('/_astro/')) {
      response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    }
  });
  stream.on('error', () => {
    res.removeHeader('Content-Encoding');
    handler(req, res);
  });
  stream.pipe(res);
  return true;
}

/** GET, HEAD, DELETE, OPTIONS… take no body here: one announced is refused before Node reads it. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
function refusesBody(req, res) {
  const length = req.headers['content-length'];
  const announced =
    req.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length.trim() !== '0');
  if (BODY_METHODS.has(req.method ?? '') || !announced) return false;
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
  res.end('This request method takes no body.');
  return true;
}

// Slow clients cannot hold connections: the request's headers within 10 s, the whole request within
// 30 s, an idle keep-alive connection 5 s (Node's defaults: 60 s, 300 s, checked every 30 s).
const server = http.createServer(
  {
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: 1_000,
  },
  (req, res) => {
    if (refusesBody(req, res)) return;
    if (!servePrecompressed(req, res)) handler(req, res);
  },
);
const port = PORT;
const host = HOST ?? (options.host === true ? '0.0.0.0' : options.host || 'localhost');
server.listen(port, host, () => {
  console.log(
    `Masthead listening on http://${host}:${port} (compression ${compression ? 'on' : 'off'}, ${precompressed.size} precompressed assets)`,
  );
  // Loads the site at start-up, not on the first visit: its change watchers start now (docs/deploy.md).
  const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  fetch(`http://${local.includes(':') ? `[${local}]` : local}:${port}/_metrics`)
    .then((response) => response.body?.cancel())
    .catch(() => {});
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
