// `npm start`: the built Astro server (adapter handler) behind an HTTP server with tighter timeouts.
// The handler serves the client files listed at start, text assets with the brotli/gzip copies the
// build wrote beside them (`COMPRESSION=false`: never; src/lib/delivery/static-files.ts), and hands
// every other request to the app without a disk lookup. Pages are compressed by the site's middleware.
// HOST (127.0.0.1 by default with TRUST_PROXY=true), PORT and MASTHEAD_OUT_DIR as for entry.mjs;
// every setting is read (and refused) by src/lib/settings/, like the server's own.
import http from 'node:http';
import { join, resolve } from 'node:path';
import './check-node.mjs';

// Loading takes a second or more, and a SIGHUP (reload the tenants and secrets files) would kill the
// process until the site has installed its own handlers: one asked for meanwhile is done once loaded.
// So this comes before every other import (they are dynamic for that).
let hangupWhileLoading = false;
const whileLoading = () => (hangupWhileLoading = true);
process.on('SIGHUP', whileLoading);

const { settingsOrExit, tellAdapter } = await import('../src/lib/settings/settings.ts');
const { listenChoice } = await import('../src/lib/settings/listen.ts');
const { bareQueryRefusal, warmImage } = await import('../src/lib/images/warm.ts');
const { announcesBody, BODY_METHODS } = await import('../src/lib/request/body-limit.ts');

const current = settingsOrExit();
const { COMPRESSION: compression, PORT, MASTHEAD_OUT_DIR } = current;

tellAdapter({ ASTRO_NODE_AUTOSTART: 'disabled' });
const { handler, options } = await import(join(resolve(MASTHEAD_OUT_DIR), 'server', 'entry.mjs'));
process.off('SIGHUP', whileLoading);
if (hangupWhileLoading) process.emit('SIGHUP', 'SIGHUP');

/**
 * A public derived image already on disk, answered here (about a file read) instead of through the
 * site's middleware and routing; anything else, or a failure, goes to the site's handler.
 */
function serveWarmImage(req, res) {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url?.includes('/_img/u/')) {
    return false;
  }
  const refusal = bareQueryRefusal(req.url);
  if (refusal) {
    res.writeHead(refusal.status, Object.fromEntries(refusal.headers));
    refusal.text().then((text) => res.end(req.method === 'HEAD' ? undefined : text));
    return true;
  }
  warmImage(req.url).then(
    (warm) => {
      if (!warm) return handler(req, res);
      res.writeHead(200, warm.headers);
      res.end(req.method === 'HEAD' ? undefined : warm.bytes);
    },
    () => handler(req, res),
  );
  return true;
}

// A fresh page in the site's route cache, written straight to Node's response: no Web `Request`, no
// routing, no middleware (src/lib/delivery/route-cache.ts, `NODE_HIT`; set once Astro loads it).
const NODE_HIT = Symbol.for('masthead.route-cache.node-hit');
const routeCacheHit = (req, res) => globalThis[NODE_HIT]?.(req, res) === true;

/** GET, HEAD, DELETE, OPTIONS… take no body here: one announced is refused before Node reads it. */
function refusesBody(req, res) {
  const announced = announcesBody((name) => req.headers[name] ?? null);
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
    if (serveWarmImage(req, res)) return;
    if (routeCacheHit(req, res)) return;
    handler(req, res);
  },
);
const port = PORT;
// Behind a trusted proxy without a HOST: loopback only (src/lib/settings/listen.ts; the built
// entry's start-up check, imported above, has already warned about a HOST others can reach).
const host =
  listenChoice(current).host ?? (options.host === true ? '0.0.0.0' : options.host || 'localhost');
server.listen(port, host, () => {
  console.log(
    `Masthead listening on http://${host}:${port} (compression ${compression ? 'on' : 'off'})`,
  );
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
