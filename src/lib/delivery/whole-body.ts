/**
 * A response body held whole in memory, handed from the compression middleware to the route cache
 * without copying. A page is tens of kilobytes: each copy is one more large allocation per render
 * (and, above the allocator's mmap threshold, a mapping and its page faults), and a `Response`
 * copies any `ArrayBuffer` it is given.
 */
const WHOLE_BODY = Symbol.for('masthead.whole-body');

/** A stream over `bytes` without copying them (nothing writes to a body once made). */
export function streamOver(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** A response whose body is `bytes`, which `wholeBody` hands back as they are. */
export function responseOver(bytes: Uint8Array, init: ResponseInit): Response {
  const response = new Response(streamOver(bytes), init);
  Reflect.set(response, WHOLE_BODY, bytes);
  return response;
}

/** The bytes of a response made by `responseOver`, or undefined for any other. */
export function wholeBody(response: Response): Uint8Array | undefined {
  const bytes: unknown = Reflect.get(response, WHOLE_BODY);
  return bytes instanceof Uint8Array ? bytes : undefined;
}

/**
 * The whole body of `response`: the bytes `responseOver` holds, else read from its stream, without
 * the further copy `arrayBuffer()` makes when the body comes in one chunk (a page Astro rendered).
 */
export async function readWhole(response: Response): Promise<Uint8Array> {
  const known = wholeBody(response);
  if (known || !response.body) return known ?? new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  const [only] = chunks;
  return only && chunks.length === 1 ? only : Buffer.concat(chunks);
}
