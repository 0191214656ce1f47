import { registry } from '../observability/prometheus.ts';
import { uncached } from './policy.ts';
import { operatorAccess, operatorRefusal } from './status-access.ts';
import type { StatusAccessInput } from './status-access.ts';

/**
 * `/_metrics`: Prometheus text of this server (prom-client), for direct local requests and for
 * anyone with `Authorization: Bearer $METRICS_TOKEN` (what Prometheus's `authorization` sends).
 */
export async function metricsResponse(input: StatusAccessInput): Promise<Response> {
  const access = await operatorAccess('metrics', input);
  if (access !== 'allowed') return operatorRefusal(access, false);
  return uncached(200, await registry.metrics(), { 'Content-Type': registry.contentType });
}
