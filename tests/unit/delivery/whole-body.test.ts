import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { maybeCompress } from '../../../src/lib/delivery/compression.ts';
import { readWhole, responseOver, wholeBody } from '../../../src/lib/delivery/whole-body.ts';

const page = '<!doctype html><p>' + 'A story worth caching. '.repeat(200) + '</p>';
const shareable = () =>
  new Response(page, {
    headers: { 'Content-Type': 'text/html', 'Cache-Control': 'public, max-age=60' },
  });

describe('a page body held whole', () => {
  it('is handed on as the same bytes, and still reads as the body', async () => {
    const bytes = new TextEncoder().encode(page);
    const response = responseOver(bytes, { headers: { 'Content-Type': 'text/html' } });
    expect(wholeBody(response)).toBe(bytes);
    expect(await response.text()).toBe(page);
    expect(wholeBody(new Response(page))).toBeUndefined();
  });

  it('comes from the compression middleware for a page caches keep, encoded as asked', async () => {
    const plain = await maybeCompress(shareable(), { method: 'GET', acceptEncoding: null });
    expect(new TextDecoder().decode(wholeBody(plain))).toBe(page);
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(page)));

    const br = await maybeCompress(shareable(), { method: 'GET', acceptEncoding: 'br' });
    const bytes = wholeBody(br);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(bytes ?? new Uint8Array()).toString()).toBe(page);
    expect(br.headers.get('content-length')).toBe(String(bytes?.byteLength));
  });

  it('is read whole from a streamed body, in one piece or several', async () => {
    const bytes = new TextEncoder().encode(page);
    const streamed = (pieces: Uint8Array[]) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const piece of pieces) controller.enqueue(piece);
            controller.close();
          },
        }),
      );
    expect(new TextDecoder().decode(await readWhole(streamed([bytes])))).toBe(page);
    const pieces = [bytes.subarray(0, 7), bytes.subarray(7, 1000), bytes.subarray(1000)];
    expect(new TextDecoder().decode(await readWhole(streamed(pieces)))).toBe(page);
    expect((await readWhole(new Response(null))).byteLength).toBe(0);
    const held = responseOver(bytes, {});
    expect(await readWhole(held)).toBe(bytes);
  });
});
