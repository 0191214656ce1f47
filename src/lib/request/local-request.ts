/**
 * Whether a request comes straight from a program on this machine (an operator's `curl`, a local
 * Prometheus), for `/_metrics` and `/_status` without a token. A proxy on this machine also
 * connects from loopback, passing on someone else's request: any header a proxy uses to name the
 * visitor makes the request not local, trusted proxy or not. The visitor's address itself is only
 * ever read from `X-Forwarded-For` (./visitor-limits.ts `clientIp`), never from these others.
 */

/** Headers proxies set to pass on the visitor (standard, de facto and CDN spellings). */
export const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'client-ip',
  'via',
] as const;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** True when `headers` carry any proxy's account of the visitor. */
export function carriesForwarding(headers: Headers): boolean {
  return FORWARDING_HEADERS.some((name) => headers.has(name));
}

/** A loopback socket without any forwarding header. */
export function isDirectLocal(clientAddress: string | undefined, headers: Headers): boolean {
  return LOOPBACK.test(clientAddress ?? '') && !carriesForwarding(headers);
}
