import { ImageError } from './errors.ts';
import { FORMAT_TYPE, type ImageFormat } from './ladder.ts';

/** Derived images of public sources: their address changes with source, width and format. */
export const PUBLIC_IMAGE_CACHE = 'public, max-age=31536000, immutable';
/**
 * Another width standing in for a picture still being made (./pipeline.ts `answer`): kept a short
 * while, so a cache asks again once the picture itself is made.
 */
export const STAND_IN_IMAGE_CACHE = 'public, max-age=30';
/** A subscriber's page image: never stored by a browser cache or a shared one. */
export const PRIVATE_IMAGE_CACHE = 'private, no-store';

// A transparent 1000×1 GIF (71 bytes): a failed picture shows the layout's typographic fallback
// beneath it, never a broken-image icon. Its shape is the point: a picture sized by its own ratio
// (`height: auto`, an article's figures) collapses to a hairline and the alt text beneath it shows
// (src/components/posts/PostArticle.astro), where a square stand-in left a blank gap a column wide.
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
    'Content-Type': FORMAT_TYPE[format],
    'Content-Length': String(bytes.byteLength),
    'Cache-Control': cacheControl,
    'X-Content-Type-Options': 'nosniff',
  };
}

export function imageOk(bytes: Buffer, format: ImageFormat, cacheControl: string): Response {
  return new Response(new Uint8Array(bytes), {
    status: 200,
    headers: imageHeaders(bytes, format, cacheControl),
  });
}

/**
 * A refusal: the status and a one-line reason (`X-Image-Error`). Addresses the site never signed
 * get plain text; a source that failed gets the blank picture, so the page shows its fallback.
 */
export function imageRefused(error: ImageError): Response {
  const headers = { 'Cache-Control': 'no-store', 'X-Image-Error': error.message };
  if (error.status === 400 || error.status === 403 || error.status === 401) {
    return new Response(`${error.message}\n`, {
      status: error.status,
      headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  return new Response(new Uint8Array(BLANK_GIF), {
    status: error.status,
    headers: {
      ...headers,
      'Content-Type': 'image/gif',
      ...(error.status === 503 ? { 'Retry-After': '5' } : {}),
    },
  });
}
