import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../../src/lib/static/crawl.ts';

// A rendering server whose idle keep-alive timeout ends just as the build sends its next request on
// that connection (Node's 5 s, while the build's own event loop was busy writing files): the server
// closes the connection without an answer. Modelled here as a close on each connection's second request.
const SERVER = `
const http = require('node:http');
const served = new WeakSet();
const server = http.createServer((req, res) => {
  if (served.has(req.socket)) return req.socket.destroy();
  served.add(req.socket);
  res.end('page ' + req.url);
});
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`;

let child: ChildProcess;
let url: string;

beforeAll(async () => {
  child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  const [port] = (await once(child, 'message')) as [number];
  url = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  child.kill();
});

describe('asking the rendering server', () => {
  it('answers a page whose reused connection the server closed meanwhile', async () => {
    const first = await ask(url)('/a');
    expect(await first.text()).toBe('page /a');
    // The connection is back in the pool: the next request reuses it.
    await sleep(20);
    const second = await ask(url)('/b');
    expect(await second.text()).toBe('page /b');
  });
});
