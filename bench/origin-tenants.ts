import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tenants.json of `count` copies of the first demo tenant: ids `t0`…, each on `t<n>.localhost`. */
export function tenantsFile(text: string, count: number): string {
  const file = JSON.parse(text) as { $schema: string; tenants: Record<string, unknown>[] };
  const model = file.tenants[0]!;
  const tenants = Array.from({ length: count }, (_, n) => ({
    ...model,
    id: `t${n}`,
    name: `Tenant ${n}`,
    hosts: [`t${n}.localhost`],
  }));
  return `${JSON.stringify({ ...file, tenants }, null, 2)}\n`;
}

/** The publishing mock behind a proxy that answers every bench tenant `t<n>` as daily-planet. */
export async function startTenantProxy(target: string) {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host };
    if (/^t\d+$/.test(String(headers['x-tenant']))) headers['x-tenant'] = 'daily-planet';
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
