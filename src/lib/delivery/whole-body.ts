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
