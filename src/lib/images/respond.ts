import { ImageError } from './errors.ts';
import { formatType, type ImageFormat } from './ladder.ts';
import { NO_STORE, RETRY_AFTER_SECONDS, uncached } from '../delivery/policy.ts';

// A transparent 1000×1 GIF: a failed picture shows the layout's fallback, never a broken-image
// icon, and one sized by its own ratio collapses to a hairline above its alt text (PostArticle).
export const BLANK_GIF = Buffer.from(
  'R0lGODlh6AMBAIAAAExpcQAAACH5BAUAAAAALAAAAADoAwEAAAIehI+py+0Po5y02ouz3rz7D4biSJbmiabqyrbuCzsFADs=',
  'base64',
);

/** The headers of a derived image (the same from the route and from `npm start`'s warm path). */
export function imageHeaders(
  bytes: Uint8Array,
  format: ImageFormat,
  cacheControl: string,
): Record<string, string> {
  return {
    'Content-Type': formatType(format),
    'Content-Length': String(bytes.byteLength),
    'Cache-Control': cacheControl,
    'X-Content-Type-Options': 'nosniff',
  };
}

/** The bytes as they are: a stream of one chunk (a `Uint8Array` body would be copied first). */
export function imageOk(bytes: Buffer, format: ImageFormat, cacheControl: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return new Response(body, { headers: imageHeaders(bytes, format, cacheControl) });
}

/**
 * A refusal: the status and a one-line reason (`X-Image-Error`). Addresses the site never signed
 * get plain text; a source that failed gets the blank picture, so the page shows its fallback.
 */
export function imageRefused(error: ImageError): Response {
  const headers = { 'Cache-Control': NO_STORE, 'X-Image-Error': error.message };
  if (error.status === 400 || error.status === 403 || error.status === 401) {
    return uncached(error.status, `${error.message}\n`, headers);
  }
  return new Response(BLANK_GIF, {
    status: error.status,
    headers: {
      ...headers,
      'Content-Type': 'image/gif',
      ...(error.status === 503
        ? { 'Retry-After': String(error.retryAfter ?? RETRY_AFTER_SECONDS) }
        : {}),
    },
  });
}
