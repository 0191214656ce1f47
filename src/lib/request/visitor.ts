import { isLoopback } from '../settings/listen.ts';
import { publicOrigin } from './public-origin.ts';
import { clientIp, type ClientAddressSource } from './visitor-limits.ts';

/**
 * Who sent the request, decided once per request by the middleware (`locals.visitor`).
 *
 * `address`: the proxy's `X-Forwarded-For` only when `TRUST_PROXY` is on, else the socket's.
 * `local`: straight from a program on this machine (an operator's `curl`, a local Prometheus), for
 * `/_metrics` and `/_status` without a token. A proxy on this machine also connects from loopback,
 * passing on someone else's request: any header a proxy uses to name the visitor makes the request
 * not local, trusted proxy or not. The address is never read from these other headers.
 * `origin`: the one the browser used (`publicOrigin`), for the cross-site check and the tenant match.
 */
export interface Visitor {
  address: string;
  local: boolean;
  origin: string;
}

export function visitorOf(context: ClientAddressSource, trustProxy: boolean | number): Visitor {
  const { headers, url } = context.request;
  const address = clientIp(context, false);
  return {
    address: trustProxy ? clientIp(context, true) : address,
    local: isLoopback(address) && !FORWARDING_HEADERS.some((name) => headers.has(name)),
    origin: publicOrigin(new URL(url), headers, trustProxy),
  };
}

/** Headers proxies set to pass on the visitor (standard, de facto and CDN spellings). */
const FORWARDING_HEADERS = [
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
