import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import type { UpstreamOptions } from '../../../src/lib/upstream/runtime.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  baseUrl: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on port 0: fetch is exercised over the wire, never replaced. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: SeenRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      void Promise.resolve(handler(entry, res)).catch(() => {
        res.statusCode = 500;
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** An isolated upstream for a test: quiet logs, fast retries. */
export function testUpstream(options: UpstreamOptions = {}) {
  const lines: string[] = [];
  const up = createUpstream({
    metrics: createMetrics({ log: (line) => lines.push(line) }),
    ...options,
    http: { backoffBaseMs: 5, backoffMaxMs: 20, ...options.http },
  });
  return { up, lines };
}
