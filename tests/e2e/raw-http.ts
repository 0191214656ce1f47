import { request as httpRequest } from 'node:http';

// Requests a browser would never send (bad Host, huge bodies, a proxy's rewritten Host), so plain
// node:http, not a page or Playwright's request context.
export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** `body` is a string, or `bytes` of filler streamed 1 MiB at a time until the server answers. */
export function raw(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string | number> },
  body?: string | { bytes: number },
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    // A server that refuses a body still being sent reads on after its answer (a lingering close):
    // a reset (EPIPE, ECONNRESET) before the answer is a failure, never an outcome.
    req.on('error', reject);
    if (typeof body === 'string') {
      req.end(body);
    } else if (body) {
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      let answered = false;
      req.on('response', () => (answered = true));
      const pump = () => {
        while (!answered && sent < body.bytes) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    } else {
      req.end();
    }
  });
}
