import { describe, expect, it } from 'vitest';
import {
  PRIORITY,
  requestPriority,
  TransformQueue,
  urgencyOf,
  type Priority,
} from '../../../src/lib/images/queue.ts';

describe('the priority of a picture request', () => {
  it('reads the urgency of a Priority header as Chromium sends it (RFC 9218)', () => {
    expect(urgencyOf('u=1, i')).toBe(1); // <img fetchpriority="high"> over HTTP/2
    expect(urgencyOf('i')).toBe(3); // any other image: the default urgency
    expect(urgencyOf('u=0')).toBe(0);
    expect(urgencyOf('i, u=5')).toBe(5);
    expect(urgencyOf(null)).toBeUndefined(); // HTTP/1.1: no header
    expect(urgencyOf('u=9')).toBe(3); // out of range: ignored
  });

  it('puts the picture the browser needs first ahead, thumbnails behind pictures at size', () => {
    expect(requestPriority(800, 'u=1, i')).toBe(PRIORITY.view);
    expect(requestPriority(160, 'u=1, i')).toBe(PRIORITY.view);
    expect(requestPriority(800, 'i')).toBe(PRIORITY.picture);
    expect(requestPriority(800, null)).toBe(PRIORITY.picture);
    expect(requestPriority(1200)).toBe(PRIORITY.picture);
    expect(requestPriority(160, 'i')).toBe(PRIORITY.thumbnail);
    expect(requestPriority(320)).toBe(PRIORITY.thumbnail);
    expect(requestPriority(480)).toBe(PRIORITY.picture);
  });
});

/** A job that records its name when it runs and ends when `release` is called. */
function gate() {
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release: () => release() };
}

describe('the transform queue', () => {
  it('runs the waiting jobs by priority, first come first within one, one slot at a time', async () => {
    const queue = new TransformQueue(1);
    const order: string[] = [];
    const busy = gate();
    const first = queue.run(() => busy.done, PRIORITY.thumbnail);
    const jobs: [string, Priority][] = [
      ['thumb 1', PRIORITY.thumbnail],
      ['warm', PRIORITY.warm],
      ['thumb 2', PRIORITY.thumbnail],
      ['cover', PRIORITY.picture],
      ['page in view', PRIORITY.view],
      ['thumb 3', PRIORITY.thumbnail],
    ];
    const all = jobs.map(([name, priority]) =>
      queue.run(() => Promise.resolve(void order.push(name)), priority),
    );
    expect(queue.waiting).toBe(6);
    busy.release();
    await Promise.all([first, ...all]);
    expect(order).toEqual(['page in view', 'cover', 'thumb 1', 'thumb 2', 'thumb 3', 'warm']);
    expect(queue.peak).toBe(1);
  });

  it('moves a waiting job up when it is asked for sooner, and never down', async () => {
    const queue = new TransformQueue(1);
    const order: string[] = [];
    const busy = gate();
    const first = queue.run(() => busy.done, PRIORITY.picture);
    const all = [
      queue.run(() => Promise.resolve(void order.push('thumb')), PRIORITY.thumbnail),
      queue.run(() => Promise.resolve(void order.push('warmed lead')), PRIORITY.warm, 'lead'),
      queue.run(() => Promise.resolve(void order.push('cover')), PRIORITY.picture, 'cover'),
    ];
    queue.raise('lead', PRIORITY.view); // a reader opened the post being warmed
    queue.raise('cover', PRIORITY.warm); // warming asks for what a reader waits for: no change
    queue.raise('gone', PRIORITY.view); // not waiting: nothing happens
    busy.release();
    await Promise.all([first, ...all]);
    expect(order).toEqual(['warmed lead', 'cover', 'thumb']);
  });

  it('runs as many jobs at once as it has slots', async () => {
    const queue = new TransformQueue(2);
    const gates = Array.from({ length: 5 }, gate);
    let running = 0;
    const all = gates.map((g) =>
      queue.run(async () => {
        running++;
        await g.done;
        running--;
      }, PRIORITY.picture),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(running).toBe(2);
    expect(queue.waiting).toBe(3);
    for (const g of gates) g.release();
    await Promise.all(all);
    expect(queue.peak).toBe(2);
  });
});
