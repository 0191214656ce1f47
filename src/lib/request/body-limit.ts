/**
 * Request bodies are refused above this size, before anything parses them. Every form and JSON
 * endpoint here needs a few kilobytes; the Node adapter would otherwise buffer up to 1 GB.
 */
export const MAX_BODY_BYTES = 64 * 1024;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export type BodyVerdict = 'ok' | 'too-large' | 'length-required';

/**
 * Judges a request body by its `Content-Length`, without reading it. Browsers send one with every
 * form and `fetch` post; a body streamed without one (chunked) is refused with 411 rather than
 * read, and the adapter's own `bodySizeLimit` (astro.config.mjs) stops any stream at the same size.
 */
export function judgeBody(request: Request, limit = MAX_BODY_BYTES): BodyVerdict {
  if (request.body === null) return 'ok';
  const declared = request.headers.get('content-length');
  if (declared === null) {
    // `Transfer-Encoding` does not survive into a `Request`: any body-carrying method without a
    // length is treated as streamed (browsers send `Content-Length: 0` for an empty post).
    return BODY_METHODS.has(request.method) ? 'length-required' : 'ok';
  }
  const length = Number(declared);
  // Node's parser ends the body at Content-Length, so a declared size within the limit holds.
  return Number.isSafeInteger(length) && length >= 0 && length <= limit ? 'ok' : 'too-large';
}

/** 413 or 411 in the shape the caller reads: JSON for API and action calls, text for a page form. */
export function refuseBody(
  request: Request,
  verdict: Exclude<BodyVerdict, 'ok'>,
  limit = MAX_BODY_BYTES,
): Response {
  const status = verdict === 'too-large' ? 413 : 411;
  const message =
    verdict === 'too-large'
      ? `The request body is larger than ${Math.round(limit / 1024)} KB.`
      : 'Send the request body with a Content-Length header.';
  const wantsJson =
    request.headers.get('content-type')?.includes('json') ||
    request.headers.get('accept')?.includes('application/json');
  return wantsJson
    ? new Response(JSON.stringify({ message }), {
        status,
        headers: { 'Content-Type': 'application/json', Connection: 'close' },
      })
    : new Response(message, {
        status,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' },
      });
}
