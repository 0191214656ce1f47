import { registry } from '../observability/prometheus.ts';
import { mayReadStatus } from './status-access.ts';
import type { StatusAccessInput } from './status-access.ts';

/**
 * `/_metrics`: Prometheus text of this server (prom-client), for direct local requests and for
 * anyone with `Authorization: Bearer $METRICS_TOKEN` (what Prometheus's `authorization` sends).
 */
export async function metricsResponse(
  input: Omit<StatusAccessInput, 'statusToken'> & { metricsToken: string | undefined },
): Promise<Response> {
  if (!mayReadStatus({ ...input, statusToken: input.metricsToken })) {
    return new Response('Forbidden\n', {
      status: 403,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  }
  return new Response(await registry.metrics(), {
    headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
  });
}
