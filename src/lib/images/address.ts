import { createHmac, timingSafeEqual } from 'node:crypto';
import { memo } from '../memo.ts';
import { safeDecode } from '../tenants/resolution.ts';
import { FORMAT_EXTENSION, formatOfExtension, isLadderWidth, type ImageFormat } from './ladder.ts';

/**
 * Addresses of the image route, signed by the server so nobody can ask it for an arbitrary source,
 * width or format:
 * - `/_img/u/<source, base64url>/<width>[-<crop>]/<signature>.<ext>`: a public upstream picture;
 * - `/_img/e/<edition slug>/<page>/<width>/<signature>.<ext>`: a page of a subscriber-only edition,
 *   checked against the session on every request (its upstream URL never leaves the server).
 * Paths only (no query), so a static copy stores each one as a file.
 */
export type ImageTarget =
  { kind: 'source'; source: string } | { kind: 'edition-page'; edition: string; page: number };

/** Crops for search engines' article images (16:9, 4:3, 1:1); none keeps the source's shape. */
export const IMAGE_CROPS = ['16x9', '4x3', '1x1'] as const;
export type ImageCrop = (typeof IMAGE_CROPS)[number];

export type ImageRequest = {
  target: ImageTarget;
  width: number;
  format: ImageFormat;
  crop?: ImageCrop | undefined;
};

const SIGNATURE_BYTES = 16;

const sizeSegment = ({ width, crop }: ImageRequest) => (crop ? `${width}-${crop}` : `${width}`);

const signed = (target: ImageTarget) =>
  target.kind === 'source' ? `u\n${target.source}` : `e\n${target.edition}\n${target.page}`;

/** HMAC-SHA256 over target, width and format, base64url (22 characters). */
export function imageSignature(secret: string, request: ImageRequest): string {
  return createHmac('sha256', secret)
    .update(`${signed(request.target)}\n${sizeSegment(request)}\n${request.format}`)
    .digest()
    .subarray(0, SIGNATURE_BYTES)
    .toString('base64url');
}

// An HMAC per address was 4 % of a post render's CPU. Only the site's own addresses are kept.
const paths = memo(
  (_key: string, secret: string, request: ImageRequest) =>
    `${unsignedPath(request)}${imageSignature(secret, request)}.${FORMAT_EXTENSION[request.format]}`,
  { maxBytes: 4 * 1024 * 1024, bytes: (path, key) => path.length + key.length },
);

/** The signed site path (without a tenant prefix) of one derived image. */
export function imagePath(secret: string, request: ImageRequest): string {
  // Keyed by what the signature covers.
  const key = `${secret}\0${signed(request.target)}\0${sizeSegment(request)}\0${request.format}`;
  return paths(key, secret, request);
}

/** The one spelling of an address up to its signature: `/_img/<target>/<size>/`. */
function unsignedPath(request: ImageRequest): string {
  const { target } = request;
  const head =
    target.kind === 'source'
      ? `u/${Buffer.from(target.source).toString('base64url')}`
      : `e/${encodeURIComponent(target.edition)}/${target.page}`;
  return `/_img/${head}/${sizeSegment(request)}/`;
}

type ParsedImagePath =
  { ok: true; request: ImageRequest } | { ok: false; status: 400 | 403 | 404; reason: string };

const bad = (reason: string): ParsedImagePath => ({ ok: false, status: 400, reason });

/** Another spelling of an address the site signs (a cache would keep one copy per spelling). */
const NOT_CANONICAL: ParsedImagePath = {
  ok: false,
  status: 404,
  reason: 'No picture has this address: the site spells each one in exactly one way.',
};

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The text of a base64url segment only when the segment is exactly how it would be written. */
function strictBase64url(segment: string): string | undefined {
  if (!BASE64URL.test(segment)) return undefined;
  const bytes = Buffer.from(segment, 'base64url');
  // Node's decoder skips what it cannot read, and the last letter carries spare bits: re-encode.
  return bytes.toString('base64url') === segment ? bytes.toString('utf8') : undefined;
}

/**
 * Reads and verifies an image route path (`/_img/…`): malformed 400, a bad signature 403, any
 * spelling but the one `imagePath` writes 404 (an edge would store each spelling separately).
 */
export function parseImagePath(secret: string, pathname: string): ParsedImagePath {
  const parts = pathname.replace(/^\/_img\//, '').split('/');
  const file = /^([A-Za-z0-9_-]{22})\.([a-z]+)$/.exec(parts.at(-1) ?? '');
  const format = formatOfExtension(file?.[2] ?? '');
  const size = /^(\d{1,5})(?:-(16x9|4x3|1x1))?$/.exec(parts.at(-2) ?? '');
  const width = Number(size?.[1]);
  const crop = IMAGE_CROPS.find((one) => one === size?.[2]);
  if (!file || !format) return bad('Unknown image format: use .avif, .webp or .jpg.');
  if (!size || !isLadderWidth(width)) return bad('This width is not one the site makes.');
  let target: ImageTarget;
  if (parts[0] === 'u' && parts.length === 4) {
    const source = strictBase64url(parts[1] ?? '');
    if (source === undefined) return NOT_CANONICAL;
    if (!/^https?:\/\//.test(source)) return bad('Malformed image source.');
    target = { kind: 'source', source };
  } else if (parts[0] === 'e' && parts.length === 5 && /^[1-9]\d{0,3}$/.test(parts[2] ?? '')) {
    const edition = safeDecode(parts[1] ?? '');
    if (edition === undefined) return NOT_CANONICAL;
    target = { kind: 'edition-page', edition, page: Number(parts[2]) };
  } else {
    return bad('Malformed image address.');
  }
  const request: ImageRequest = { target, width, format, ...(crop ? { crop } : {}) };
  if (`${unsignedPath(request)}${file[0]}` !== pathname) return NOT_CANONICAL;
  // The signature covers the canonical form (compared as text, in constant time: the last letter
  // of base64url carries spare bits, so only the spelling the site wrote is its signature).
  const expected = Buffer.from(imageSignature(secret, request));
  const given = Buffer.from(file[1] ?? '');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, status: 403, reason: 'The image address is not signed by this site.' };
  }
  return { ok: true, request };
}
