import { timingSafeEqual } from 'node:crypto';
import { profileStatus } from '../profiles/status.ts';
import { upstreamStatus } from '../site/clients.ts';
import { getTenants } from '../tenants/registry.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export interface StatusAccessInput {
  clientAddress: string | undefined;
  /** Any proxy header means the request may come from outside, whatever the socket says. */
  forwardedFor: string | null;
  authorization: string | null;
  statusToken: string | undefined;
}

/** `/_status` is open to direct local requests, and to anyone with `Authorization: Bearer $STATUS_TOKEN`. */
export function mayReadStatus(input: StatusAccessInput): boolean {
  if (input.statusToken && input.authorization?.startsWith('Bearer ')) {
    const given = Buffer.from(input.authorization.slice('Bearer '.length));
    const expected = Buffer.from(input.statusToken);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  return !input.forwardedFor && LOOPBACK.test(input.clientAddress ?? '');
}

/** The `/_status` answer: upstream counters of every tenant as JSON, or 403 for anyone else. */
export function statusResponse(input: StatusAccessInput): Response {
  if (!mayReadStatus(input)) {
    return new Response(JSON.stringify({ message: 'Forbidden' }), {
      status: 403,
      headers: { 'Content-Type': 'application/json' },
    });
  }
  const body = { ...upstreamStatus(), profiles: profileStatus(getTenants()) };
  return new Response(JSON.stringify(body, null, 2), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}
