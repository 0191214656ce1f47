import { describe, expect, it } from 'vitest';
import { memo } from '../../src/lib/memo.ts';

describe('memo()', () => {
  it('makes a value once per object key, undefined included, until forgotten', () => {
    let made = 0;
    const of = memo((_key: object) => {
      made += 1;
      return made === 1 ? undefined : made;
    });
    const a = {};
    const b = {};
    expect([of(a), of(a), of(b), of(b)]).toEqual([undefined, undefined, 2, 2]);
    of.forget(a);
    expect(of(a)).toBe(3);
    expect(made).toBe(3);
  });

  it('keeps at most `max` string keys, the least recently used going first', () => {
    const made: string[] = [];
    const upper = memo(
      (key: string) => {
        made.push(key);
        return key.toUpperCase();
      },
      { max: 2 },
    );
    upper('a');
    upper('b');
    upper('a'); // a is now the most recently used
    upper('c'); // b goes
    expect([upper('a'), upper('c'), upper('b')]).toEqual(['A', 'C', 'B']);
    expect(made).toEqual(['a', 'b', 'c', 'b']);
  });

  it('bounds by bytes, and the arguments after the key only help on a miss', () => {
    let calls = 0;
    const repeat = memo(
      (_key: string, times: number) => {
        calls += 1;
        return 'x'.repeat(times);
      },
      { maxBytes: 10, bytes: (value) => value.length },
    );
    expect(repeat('six', 6)).toBe('xxxxxx');
    expect(repeat('six', 99)).toBe('xxxxxx');
    repeat('five', 5); // 6 + 5 > 10: `six` goes
    expect(repeat('six', 2)).toBe('xx');
    expect(calls).toBe(3);
  });

  it('peeks without making, and clears every key of both kinds', () => {
    let made = 0;
    const count = memo((_key: string) => (made += 1), { max: 4 });
    const byObject = memo((_key: object) => (made += 1));
    const key = {};
    expect(count.peek('a')).toBeUndefined();
    expect([count('a'), byObject(key)]).toEqual([1, 2]);
    expect([count.peek('a'), byObject.peek(key)]).toEqual([1, 2]);
    count.clear();
    byObject.clear();
    expect([count.peek('a'), byObject.peek(key)]).toEqual([undefined, undefined]);
    expect([count('a'), byObject(key)]).toEqual([3, 4]);
  });
});
