import { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import { readWhole, responseOver } from './whole-body.ts';

export const brotliBytes = promisify(brotliCompress);
export const gzipBytes = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/** Text formats worth compressing: HTML, CSS, JS, XML (RSS, sitemaps), JSON and SVG. */
const COMPRESSIBLE_TYPE =
  /^(text\/|application\/(javascript|json|xml|rss\+xml|atom\+xml|manifest\+json|ld\+json|problem\+json)|image\/svg\+xml)/i;

/** Below this, headers and framing cost more than compression saves. */
export const MIN_COMPRESS_BYTES = 1024;

/** Brotli quality 5: close to gzip's speed on a miss, clearly smaller; hits reuse the cached bytes. */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const GZIP_LEVEL = 6;

/**
 * The encoding to answer with, from `Accept-Encoding`, among those `available` (a static file's
 * precompressed copies): brotli before gzip at equal weight, never one the client gave `q=0`, `*`
 * standing for any encoding it did not name. (Not negotiator: a dependency for these lines, and a
 * static file's rule, brotli only at gzip's weight or more even without a gzip copy, is not its own.)
 */
export function negotiateEncoding(
  acceptEncoding: string | null | undefined,
  available: { br: boolean; gz: boolean } = { br: true, gz: true },
): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = available.br ? weightOf('br') : 0;
  const gzip = weightOf('gzip');
  if (br > 0 && br >= gzip) return 'br';
  return available.gz && gzip > 0 ? 'gzip' : null;
}

/** Whether `response` is text worth compressing that nobody has encoded yet (headers say `Vary`). */
export function isCompressible(response: Response): boolean {
  if (!response.body || [204, 206, 304].includes(response.status)) return false;
  const headers = response.headers;
  if (headers.has('content-encoding')) return false;
  if (/no-transform/i.test(headers.get('cache-control') ?? '')) return false;
  if (!COMPRESSIBLE_TYPE.test(headers.get('content-type') ?? '')) return false;
  const length = headers.get('content-length');
  return length === null || Number(length) >= MIN_COMPRESS_BYTES;
}

/** Adds `token` to the `Vary` header unless it is already there. */
export function appendVary(headers: Headers, token: string): void {
  const listed = (headers.get('vary') ?? '').split(',').map((value) => value.trim().toLowerCase());
  if (!listed.includes(token.toLowerCase()) && !listed.includes('*')) headers.append('Vary', token);
}

/** A response shared caches may keep (`public` or `s-maxage`, neither `private` nor `no-store`). */
export function isShareable(response: Response): boolean {
  const cacheControl = response.headers.get('cache-control') ?? '';
  return (
    /\b(public|s-maxage)\b/i.test(cacheControl) && !/\b(private|no-store)\b/i.test(cacheControl)
  );
}

/** Compressors of a whole body and of a stream, per encoding. */
const WHOLE = {
  br: (bytes: Uint8Array) => brotliBytes(bytes, BROTLI_OPTIONS),
  gzip: (bytes: Uint8Array) => gzipBytes(bytes, { level: GZIP_LEVEL }),
};
const STREAMED = {
  br: () => createBrotliCompress(BROTLI_OPTIONS),
  gzip: () => createGzip({ level: GZIP_LEVEL }),
};

/**
 * The whole body, compressed if `encoding` says so, with its `Content-Length`: for responses caches
 * keep (Astro's route cache, the edge), which then answer hits with a known length instead of
 * chunks (nginx serves a cached chunked page markedly slower).
 */
async function bufferResponse(response: Response, encoding: Encoding | null, vary: boolean) {
  const plain = await readWhole(response);
  if (plain.length < MIN_COMPRESS_BYTES) encoding = null;
  const body = encoding ? await WHOLE[encoding](plain) : plain;
  // The route cache keeps these very bytes (./whole-body.ts): read once, copied never.
  const answer = responseOver(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  if (encoding) answer.headers.set('Content-Encoding', encoding);
  answer.headers.set('Content-Length', String(body.length));
  if (vary) appendVary(answer.headers, 'Accept-Encoding');
  return answer;
}

/**
 * The response with its body streamed through `encoding`. Status, headers and (through Astro)
 * cookies are kept; the length is unknown until the end, so `Content-Length` goes.
 */
function compressResponse(response: Response, encoding: Encoding): Response {
  if (!response.body) return response;
  const headers = new Headers(response.headers);
  headers.set('Content-Encoding', encoding);
  headers.delete('Content-Length');
  appendVary(headers, 'Accept-Encoding');
  const transform = Duplex.toWeb(STREAMED[encoding]()) as unknown as ReadableWritablePair<
    Uint8Array,
    Uint8Array
  >;
  return new Response(response.body.pipeThrough(transform), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * What the compression middleware does with one response: compress it for this client, or leave it
 * (still announcing `Vary: Accept-Encoding`, so caches keep the variants apart). Responses shared
 * caches keep are buffered to give them a length; the others (private pages) stay streamed. With
 * `compress: false` (a proxy compresses) only the buffering is left.
 */
export async function maybeCompress(
  response: Response,
  request: { method: string; acceptEncoding: string | null; compress?: boolean },
): Promise<Response> {
  if (request.method === 'HEAD' || !isCompressible(response)) return response;
  const compress = request.compress !== false;
  const encoding = compress ? negotiateEncoding(request.acceptEncoding) : null;
  if (isShareable(response)) return bufferResponse(response, encoding, compress);
  if (encoding) return compressResponse(response, encoding);
  if (compress) appendVary(response.headers, 'Accept-Encoding');
  return response;
}
