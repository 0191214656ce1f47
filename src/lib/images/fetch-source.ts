import { readLimited } from '../upstream/http.ts';
import { ImageError } from './errors.ts';

export type SourceLimits = { maxBytes: number; timeoutMs: number };

const MAX_REDIRECTS = 3;

/**
 * The bytes of an upstream picture: at most `maxBytes` (by `Content-Length`, then counted while
 * reading), while the source is never silent for `timeoutMs` (a camera photo of tens of MB on a
 * slow link takes longer as a whole: each retry would start over), following redirects only to
 * sources `allowed` accepts. What the network throws is the source's (504 or 503); anything else
 * is ours and thrown on (the route's 500).
 */
export async function fetchSource(
  source: string,
  limits: SourceLimits,
  allowed: (url: string) => boolean,
): Promise<Buffer> {
  // Aborted once the source is silent for `timeoutMs`: every answer and chunk restarts the clock;
  // and, whatever it sends, after ten times that (a source trickling a byte at a time).
  const silence = new AbortController();
  const signal = AbortSignal.any([silence.signal, AbortSignal.timeout(limits.timeoutMs * 10)]);
  const timer = setTimeout(() => silence.abort(), limits.timeoutMs);
  const heard = () => void timer.refresh();
  const unreachable = (error: unknown): never => {
    if (error instanceof ImageError) throw error;
    if (signal.aborted) throw new ImageError(504, 'The image source took too long to answer.');
    throw new ImageError(503, 'The image source could not be reached; try again shortly.');
  };
  const tooLarge = () =>
    new ImageError(422, `The image source is larger than ${limits.maxBytes} bytes.`);
  try {
    let url = source;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await fetch(url, { redirect: 'manual', signal }).catch(unreachable);
      heard();
      if (response.ok && response.body) {
        const body = response.body.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform: (chunk, out) => (heard(), out.enqueue(chunk)),
          }),
        );
        const counted = new Response(body, { headers: response.headers });
        return await readLimited(counted, limits.maxBytes, tooLarge).catch(unreachable);
      }
      void response.body?.cancel();
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = URL.parse(location, url)?.href ?? '';
        if (!url || !allowed(url))
          throw new ImageError(502, 'The image source redirects to a host that is not allowed.');
        continue;
      }
      if (response.status === 404 || response.status === 410)
        throw new ImageError(404, 'The image source does not exist.');
      // Busy, not broken: the route's 503 (Retry-After) lets a browser or static build ask again.
      if (response.status === 429 || response.status === 503)
        throw new ImageError(503, 'The image source is busy; try again shortly.');
      throw new ImageError(502, `The image source answered ${response.status}.`);
    }
    throw new ImageError(502, 'The image source redirects too often.');
  } finally {
    clearTimeout(timer);
  }
}
