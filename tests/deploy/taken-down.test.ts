/**
 * A story taken down disappears at the edge on the next request after the edge's refresh learnt
 * it is gone. nginx keeps serving its stale copy for as long as that refresh answers what it may
 * not store, so Masthead's 404 of a site's page must be one it may keep. A stand-in between the
 * edge and the real server hands the edge the story with a one-second life first (no test waits
 * out a post's minutes); every later request reaches Masthead, which knows no such post.
 */
import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedCache } from '../../src/lib/delivery/policy.ts';
import { send, waitFor } from './http.ts';
import { freePort, type Service } from './processes.ts';
import { siteOnMock } from './site-on-mock.ts';
import { startEdge } from './stack.ts';

const stack = siteOnMock({});
const STORY = '/posts/wrong-name-printed';
let copyGiven = false;
let standIn: Server;
let edge: Service;

beforeAll(async () => {
  standIn = createServer((req, res) => {
    if (req.url === STORY && !copyGiven) {
      copyGiven = true;
      const body = '<!doctype html><h1>Wrong name printed</h1>';
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
        'Cache-Control': sharedCache(1, 3600),
      });
      res.end(body);
      return;
    }
    const port = stack.site().port;
    const forward = request(
      { port, host: '127.0.0.1', path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => standIn.listen(port, '127.0.0.1', resolve));
  edge = await startEdge([port]);
});

afterAll(async () => {
  await edge?.stop();
  standIn?.closeAllConnections();
  await new Promise((resolve) => standIn?.close(resolve));
});

it('stops serving a taken-down story at the edge once its refresh answered 404', async () => {
  const story = () =>
    send(`http://127.0.0.1:${edge.port}${STORY}`, {
      host: `${stack.tenant}.localhost:${edge.port}`,
      headers: { 'Accept-Encoding': 'br' },
    });
  expect((await story()).text).toContain('Wrong name printed');
  // Past its life: served stale while the edge asks Masthead, which answers 404.
  await waitFor('the copy served stale', async () => {
    const reply = await story();
    return reply.headers['x-cache-status'] === 'STALE' ? reply : undefined;
  });
  const gone = await waitFor(
    'the story gone at the edge',
    async () => {
      const reply = await story();
      return reply.status === 404 ? reply : undefined;
    },
    10_000,
  );
  expect(gone.text).not.toContain('Wrong name printed');
});
