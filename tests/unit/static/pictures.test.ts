import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imagePath } from '../../../src/lib/images/address.ts';
import { IMMUTABLE, STAND_IN } from '../../../src/lib/delivery/policy.ts';
import { DiskStore } from '../../../src/lib/images/disk-store.ts';
import { ImageError } from '../../../src/lib/images/errors.ts';
import { imageRefused } from '../../../src/lib/images/respond.ts';
import { derivedKey } from '../../../src/lib/images/pipeline.ts';
import { fileForPath } from '../../../src/lib/static/crawl.ts';
import { cachedPicture, createPictureMaker } from '../../../src/lib/static/pictures.ts';

const SECRET = 'static-build-test-secret-0123456789';
const SOURCE = 'http://127.0.0.1:4010/media/daily-planet/covers/ferry.svg';

let root: string;
let store: string;
let out: string;
let server: Server;
let base: string;
/** Paths the fake rendering server was asked for, and how many 503s each gets first. */
let asked: string[];
let busy: Map<string, number>;
/** How many answers of another width each path gets first. */
let standIn: Map<string, number>;

const address = (width: number, format: 'avif' | 'webp' | 'jpeg' = 'webp') =>
  imagePath(SECRET, { target: { kind: 'source', source: SOURCE }, width, format });

/** A picture an earlier build made: in the image cache under its source-and-transform key. */
function inCache(width: number, bytes: string): void {
  const file = DiskStore.fileOf(store, derivedKey({ source: SOURCE, width, format: 'webp' }));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'masthead-pictures-'));
  store = join(root, 'images');
  out = join(root, 'out');
  asked = [];
  busy = new Map();
  standIn = new Map();
  server = createServer((req, res) => {
    const path = req.url ?? '';
    asked.push(path);
    const left = busy.get(path) ?? 0;
    if (left > 0) {
      busy.set(path, left - 1);
      // The image route's own answer when it is full: 503 with its blank stand-in.
      const refused = imageRefused(new ImageError(503, 'busy'));
      res.writeHead(refused.status, Object.fromEntries(refused.headers));
      void refused.arrayBuffer().then((body) => res.end(Buffer.from(body)));
      return;
    }
    const early = standIn.get(path) ?? 0;
    if (early > 0) {
      // Another width standing in while this one is made (the route's `exact: false` answer).
      standIn.set(path, early - 1);
      res.writeHead(200, { 'content-type': 'image/webp', 'cache-control': STAND_IN });
      res.end('another width');
      return;
    }
    if (path.includes('/broken/')) {
      // The image route's stand-in for a source that failed: its status, a blank GIF.
      res.writeHead(404, { 'content-type': 'image/gif' }).end('GIF89a');
      return;
    }
    if (path.includes('/missing/')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
      return;
    }
    res.writeHead(200, { 'content-type': 'image/webp', 'cache-control': IMMUTABLE });
    res.end(`made ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('the static build’s pictures', () => {
  it('links a picture the image cache holds instead of asking the server to make it', async () => {
    inCache(320, 'from an earlier build');
    const maker = createPictureMaker({ outDir: out, storeDir: store, secret: SECRET });
    maker.useServer(base);
    maker.add(address(320));
    maker.add(address(640));
    maker.add(address(320)); // named by a second page: once
    await maker.drain();
    expect(maker.counts).toEqual({ reused: 1, made: 1, blank: 0, failed: [] });
    expect(asked).toEqual([address(640)]);
    const linked = join(out, fileForPath(address(320)));
    expect(readFileSync(linked, 'utf8')).toBe('from an earlier build');
    // A hard link: no copy of the bytes.
    expect(statSync(linked).nlink).toBe(2);
    expect(readFileSync(join(out, fileForPath(address(640))), 'utf8')).toBe(`made ${address(640)}`);
  });

  it('finds nothing in the cache for an address signed with another key', () => {
    inCache(320, 'cached');
    expect(cachedPicture(store, SECRET, address(320))).toBeDefined();
    expect(cachedPicture(store, `${SECRET}-other`, address(320))).toBeUndefined();
  });

  it('asks again when the server is busy, writes a blank stand-in, reports what it cannot have', async () => {
    busy.set(address(480), 2);
    const maker = createPictureMaker({
      outDir: out,
      storeDir: store,
      secret: SECRET,
      retryMs: 1,
    });
    maker.useServer(base);
    maker.add(address(480));
    maker.add('/_img/missing/1/x.webp');
    maker.add('/_img/broken/1/x.jpg');
    await maker.drain();
    expect(asked.filter((path) => path === address(480))).toHaveLength(3);
    expect(readFileSync(join(out, fileForPath(address(480))), 'utf8')).toBe(`made ${address(480)}`);
    expect(maker.counts.made).toBe(1);
    expect(maker.counts.blank).toBe(1);
    expect(readFileSync(join(out, '_img/broken/1/x.jpg'), 'utf8')).toBe('GIF89a');
    expect(maker.counts.failed).toEqual(['/_img/missing/1/x.webp: 404']);
  });

  it('asks again for a picture answered by another width standing in, and keeps its own', async () => {
    standIn.set(address(1600), 2);
    const maker = createPictureMaker({ outDir: out, storeDir: store, secret: SECRET, retryMs: 1 });
    maker.useServer(base);
    maker.add(address(1600));
    await maker.drain();
    expect(asked.filter((path) => path === address(1600))).toHaveLength(3);
    expect(readFileSync(join(out, fileForPath(address(1600))), 'utf8')).toBe(
      `made ${address(1600)}`,
    );
    expect(maker.counts).toEqual({ reused: 0, made: 1, blank: 0, failed: [] });
  });

  it('holds what needs a server until it has one, and places what the cache has meanwhile', async () => {
    inCache(160, 'cached');
    const maker = createPictureMaker({ outDir: out, storeDir: store, secret: SECRET });
    maker.add(address(160));
    await maker.hold();
    maker.add(address(800));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toEqual([]);
    expect(existsSync(join(out, fileForPath(address(160))))).toBe(true);
    maker.useServer(base);
    await maker.drain();
    expect(asked).toEqual([address(800)]);
  });

  it('asks the next server for a picture held between two tries (the early server stopped)', async () => {
    busy.set(address(960), 1);
    const maker = createPictureMaker({ outDir: out, storeDir: store, secret: SECRET, retryMs: 50 });
    maker.useServer(base);
    maker.add(address(960));
    while (asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // The fetch is over and the build stops its early server while the picture waits to try again.
    await maker.hold();
    maker.useServer(base);
    await maker.drain();
    expect(maker.counts).toEqual({ reused: 0, made: 1, blank: 0, failed: [] });
    expect(readFileSync(join(out, fileForPath(address(960))), 'utf8')).toBe(`made ${address(960)}`);
  });

  it('asks the crawl’s server again for a picture an early server that died could not make', async () => {
    const maker = createPictureMaker({ outDir: out, storeDir: store, secret: SECRET, retryMs: 1 });
    // Nothing listens there any more.
    maker.useServer('http://127.0.0.1:9');
    maker.add(address(1200));
    await maker.drain();
    expect(maker.counts.failed).toHaveLength(1);
    maker.useServer(base);
    maker.retryFailed();
    await maker.drain();
    expect(maker.counts).toEqual({ reused: 0, made: 1, blank: 0, failed: [] });
    expect(existsSync(join(out, fileForPath(address(1200))))).toBe(true);
  });

  it('removes pictures no page of the copy names any more', async () => {
    const maker = createPictureMaker({ outDir: out, storeDir: store, secret: SECRET });
    maker.useServer(base);
    maker.add(address(320));
    maker.add(address(640));
    await maker.drain();
    expect(maker.prune(new Set([address(640)]))).toBe(1);
    expect(existsSync(join(out, fileForPath(address(320))))).toBe(false);
    expect(existsSync(join(out, fileForPath(address(640))))).toBe(true);
  });
});
