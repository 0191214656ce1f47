import { describe, expect, it } from 'vitest';
import { createKeyedLock, LockTimeoutError } from '../../../src/lib/upstream/lock.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('keyed lock (in process)', () => {
  it('runs holders of one key one after another, other keys alongside', async () => {
    const lock = createKeyedLock();
    const order: string[] = [];
    const first = gate();
    const a = lock.run('k', async () => {
      order.push('a start');
      await first.opened;
      order.push('a end');
    });
    const b = lock.run('k', () => {
      order.push('b');
      return Promise.resolve();
    });
    await lock.run('other', () => {
      order.push('other');
      return Promise.resolve();
    });
    first.open();
    await Promise.all([a, b]);
    expect(order).toEqual(['a start', 'other', 'a end', 'b']);
  });

  it('passes the lock on after a holder throws', async () => {
    const lock = createKeyedLock();
    await expect(lock.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('k', () => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('gives up waiting after waitMs, and the queue still moves on', async () => {
    const lock = createKeyedLock({ waitMs: 20 });
    const holder = gate();
    const held = lock.run('k', () => holder.opened);
    await expect(lock.run('k', () => Promise.resolve('late'))).rejects.toBeInstanceOf(
      LockTimeoutError,
    );
    holder.open();
    await held;
    await expect(lock.run('k', () => Promise.resolve('after'))).resolves.toBe('after');
  });
});
