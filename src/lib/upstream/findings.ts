import type { UpstreamService } from './errors.ts';

/**
 * What this process has learnt about reading each upstream operation, per tenant: the site's own
 * answer to "which operations and fields can it not read" (`/_status`, `profiles`). Filled by the
 * client core on every upstream call; small (one entry per tenant and operation).
 */

export interface OperationFinding {
  service: UpstreamService;
  tenant: string;
  operation: string;
  /** The profile in use (`default` when the tenant names none). */
  profile: string;
  /** `ok`; `missing-fields` (parsed, but a needed field is absent); `unreadable` (the body did not parse); `no-route` (404 on a list). */
  state: 'ok' | 'missing-fields' | 'unreadable' | 'no-route';
  missing: string[];
  /** What the schema refused, for an unreadable answer (`items.0.title: Invalid input`). */
  issues?: string | undefined;
  status?: number | undefined;
  at: string;
}

const findings = new Map<string, OperationFinding>();

export function recordFinding(finding: Omit<OperationFinding, 'at'>): void {
  findings.set(`${finding.service}|${finding.tenant}|${finding.operation}`, {
    ...finding,
    at: new Date().toISOString(),
  });
}

/** Every finding, problems first; `tenant` narrows to one tenant (or lodging account). */
export function operationFindings(tenant?: string): OperationFinding[] {
  const rank = { unreadable: 0, 'no-route': 1, 'missing-fields': 2, ok: 3 } as const;
  return [...findings.values()]
    .filter((f) => tenant === undefined || f.tenant === tenant)
    .sort((a, b) => rank[a.state] - rank[b.state] || a.operation.localeCompare(b.operation));
}

/** For tests. */
export function clearFindings(): void {
  findings.clear();
}
