import { describe, expect, it } from 'vitest';
import { longUtf8 } from '../../../src/lib/delivery/utf8.ts';

const native = new TextEncoder();
const encode = (text: string) => native.encode(text);
const page = (middle: string) =>
  `<!doctype html><p>${'Front page · news '.repeat(400)}${middle}</p>`;

describe('longUtf8', () => {
  it.each([
    ['ASCII', page('plain')],
    ['Latin-1', page('Zürich, café, ©')],
    ['characters above U+00FF', page('Older → it’s “quoted” — 東京')],
    ['surrogate pairs', page('emoji 😀 and 𝄞')],
    ['a byte order mark and NUL', page('\uFEFF\u0000')],
  ])('gives the bytes TextEncoder gives for %s', (_name, text) => {
    expect(longUtf8(text, encode)).toEqual(native.encode(text));
  });

  it('writes U+FFFD for a lone surrogate, as TextEncoder does', () => {
    for (const text of [page('\uD800'), page('a\uDC00b'), `${page('')}\uD83D`]) {
      const bytes = longUtf8(text, encode);
      expect(bytes).toEqual(native.encode(text));
      expect(Buffer.from(bytes).includes(Buffer.from([0xef, 0xbf, 0xbd]))).toBe(true);
    }
  });

  it('answers a plain Uint8Array of its own bytes', () => {
    const bytes = longUtf8(page('→'), encode);
    expect(bytes.constructor).toBe(Uint8Array);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });

  it('leaves short strings to the encoder it is given', () => {
    const calls: string[] = [];
    longUtf8('short → text', (text) => (calls.push(text), native.encode(text)));
    expect(calls).toEqual(['short → text']);
  });
});
