/**
 * Request bodies are refused above this size, before anything parses them. Every form and JSON
 * endpoint here needs a few kilobytes; the Node adapter would otherwise buffer up to 1 GB.
 */
export const MAX_BODY_BYTES = 64 * 1024;

export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export type BodyVerdict = 'ok' | 'too-large' | 'length-required' | 'no-body-allowed';

/** A body announced on a method that takes none (GET, HEAD, DELETE, OPTIONS …): nothing here reads one. */
export function announcesBody(header: (name: string) => string | null): boolean {
  const declared = header('content-length');
  return header('transfer-encoding') !== null || (declared !== null && declared.trim() !== '0');
}

/**
 * Judges a request body by its `Content-Length`, without reading it. Browsers send one with every
 * form and `fetch` post; a body streamed without one (chunked) is refused with 411 rather than
 * read, and the adapter's own `bodySizeLimit` (astro.config.mjs) stops any stream at the same size.
 */
export function judgeBody(request: Request): BodyVerdict {
  // Refused from the headers, so Node does not read (and drop) the body to keep the connection.
  if (!BODY_METHODS.has(request.method))
    return announcesBody((name) => request.headers.get(name)) ? 'no-body-allowed' : 'ok';
  if (request.body === null) return 'ok';
  const declared = request.headers.get('content-length');
  // `Transfer-Encoding` does not survive into a `Request`: a body-carrying method without a
  // length is treated as streamed (browsers send `Content-Length: 0` for an empty post).
  if (declared === null) return 'length-required';
  const length = Number(declared);
  // Node's parser ends the body at Content-Length, so a declared size within the limit holds.
  return Number.isSafeInteger(length) && length >= 0 && length <= MAX_BODY_BYTES
    ? 'ok'
    : 'too-large';
}

const FORM_BODIES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * A body sent to an action (`/_actions/<name>`, `?_action=<name>`) that is not a form: every action
 * here takes a form (src/actions/). Astro answers other types with 415, but JSON it cannot parse
 * with a 500 and an error logged (its parser's error is not caught), so this is refused before.
 */
export function isNonFormActionBody(request: Request): boolean {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (!type || !BODY_METHODS.has(request.method) || FORM_BODIES.includes(type)) return false;
  const url = new URL(request.url);
  return url.pathname.includes('/_actions/') || url.searchParams.has('_action');
}

/** A caller that reads JSON answers (the booking widget, action calls): by what it sends or accepts. */
export const wantsJson = (request: Request): boolean =>
  request.headers.get('content-type')?.includes('json') === true ||
  request.headers.get('accept')?.includes('application/json') === true;
