import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  /** Bytes as they came over the wire (still encoded). */
  raw: Buffer;
  /** The body decoded (brotli/gzip undone) as text. */
  text: string;
  /** Every `Set-Cookie`, as name=value pairs joined for a `Cookie` header. */
  cookies: string;
}

export interface RequestOptions {
  host?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The request target exactly as written (a URL drops a bare `?`, an edge cache keys on it). */
  path?: string;
}

function decode(raw: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  return raw.toString('utf8');
}

/**
 * One HTTP request with full control (node:http, not fetch): a tenant's `Host`, cookies sent over
 * plain http, and the body left encoded so tests see what went over the wire.
 */
export function send(url: string, options: RequestOptions = {}): Promise<Reply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: options.method ?? 'GET',
        ...(options.path !== undefined && { path: options.path }),
        headers: {
          ...(options.host ? { host: options.host } : {}),
          // As browsers do: the site refuses a body without a length (411).
          ...(options.body !== undefined && {
            'content-length': String(Buffer.byteLength(options.body)),
          }),
          ...options.headers,
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const setCookie = res.headers['set-cookie'] ?? [];
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            raw,
            text: decode(raw, res.headers['content-encoding']),
            cookies: setCookie.map((line) => line.split(';')[0]).join('; '),
          });
        });
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`Timed out: ${url}`)));
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Polls `check` until it returns a value (not undefined), at most `timeoutMs`; no fixed sleeps. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out waiting for ${what}${lastError instanceof Error ? `: ${lastError.message}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
