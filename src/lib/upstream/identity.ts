import { createHash } from 'node:crypto';

/** A stable, non-reversible stand-in for a token in cache and budget keys (never the token itself). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 32);
}

/** The origin (scheme://host:port) of a base URL: the upstream counts anonymous calls per IP, i.e. per origin from our side. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}
