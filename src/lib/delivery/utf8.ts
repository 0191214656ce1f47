import { transcode } from 'node:buffer';

/** Below this many UTF-16 units `TextEncoder` is quick enough whatever the string holds. */
const LONG = 4096;

/**
 * `text` as UTF-8, the bytes `TextEncoder` gives, for a long string. V8 keeps a string holding any
 * character above U+00FF (`’`, `—`, `→`: nearly every page) as two bytes a character, and Node 24's
 * `TextEncoder` converts those one by one: a 40 KB front page took 146 µs alone, 24 µs through ICU's
 * converter; in a server under load its encoding went from 365 to 230 µs of CPU (bench/origin.md).
 * A string that is not well-formed UTF-16 (a lone surrogate), which the converter refuses, goes to
 * `encode`, which writes U+FFFD for it.
 */
export function longUtf8(
  text: string,
  encode: (text: string) => Uint8Array<ArrayBuffer>,
): Uint8Array<ArrayBuffer> {
  if (text.length < LONG) return encode(text);
  try {
    const bytes = transcode(Buffer.from(text, 'utf16le'), 'utf16le', 'utf8');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch {
    // Checking first (`isWellFormed`) would cost a third of what this saves.
    return encode(text);
  }
}

/**
 * Every `TextEncoder` of the server process encodes long strings with `longUtf8`: Astro encodes
 * each page with one (`renderPage`), out of the site's reach. Called once by `npm start`.
 */
export function encodeLongStringsFaster(): void {
  // The native method on an encoder of its own (every TextEncoder writes UTF-8 alike).
  const encode = TextEncoder.prototype.encode.bind(new TextEncoder());
  TextEncoder.prototype.encode = (input?: string) =>
    typeof input === 'string' ? longUtf8(input, encode) : encode(input);
}
