import { isIP } from 'node:net';
import type { Settings } from './schema.ts';

/**
 * Where the server listens, and what it says about it at start. With `TRUST_PROXY=true` the site
 * believes `X-Forwarded-For` and `X-Forwarded-Host`, so only the proxy may reach Node: without a
 * `HOST` it listens on loopback (a proxy on the same machine, as in docs/deploy.md), and a `HOST`
 * other programs can reach gets a warning at every start.
 */

/** Only programs on this machine can connect to these (`HOST`, a socket's address, a URL's host). */
export function isLoopback(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || name.startsWith('::ffff:127.');
}

/** The address listened on when `TRUST_PROXY` is on and `HOST` is unset. */
export const PROXY_ONLY_HOST = '127.0.0.1';

/**
 * The address to listen on (`undefined`: the adapter's own default, every address), and one line
 * for the operator at start when the choice needs saying.
 */
export function listenChoice(current: Pick<Settings, 'HOST' | 'TRUST_PROXY'>) {
  const { HOST, TRUST_PROXY } = current;
  if (!TRUST_PROXY) return { host: HOST, warning: undefined };
  if (HOST === undefined) return { host: PROXY_ONLY_HOST, warning: undefined };
  if (isLoopback(HOST)) return { host: HOST, warning: undefined };
  return {
    host: HOST,
    warning:
      `TRUST_PROXY is on and HOST=${HOST} lets other machines reach Node directly: they can forge ` +
      `X-Forwarded-For (rate limits, logs) and X-Forwarded-Host. Allow only the proxy to this ` +
      `port (firewall, private network), or unset HOST to listen on ${PROXY_ONLY_HOST} when the ` +
      `proxy runs on this machine (docs/deploy.md).`,
  };
}
