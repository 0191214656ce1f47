import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Confirmation } from '../service/lodging-shapes.ts';

/**
 * Private "manage your booking" links: the booking (property, check-in, reference) with an HMAC
 * over it and the tenant's id, so a token cannot be guessed, changed or moved to another tenant.
 */

export type ManagedBooking = Pick<Confirmation, 'propertyId' | 'checkIn' | 'reference'>;

const encode = (text: string | Buffer): string => Buffer.from(text).toString('base64url');

function signature(secret: string, tenantId: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`masthead-manage\n${tenantId}\n${payload}`).digest();
}

export function signManageToken(secret: string, tenantId: string, booking: ManagedBooking): string {
  const payload = encode(JSON.stringify([booking.propertyId, booking.checkIn, booking.reference]));
  return `${payload}.${encode(signature(secret, tenantId, payload))}`;
}

/** The booking a token names, or null for anything not signed with this secret for this tenant. */
export function verifyManageToken(
  secret: string,
  tenantId: string,
  token: string,
): ManagedBooking | null {
  const match = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, payload = '', sent = ''] = match;
  // Compared as text: base64url's last letter carries spare bits, so another spelling of the same
  // bytes (…A and …B) would otherwise pass as the same signature.
  const expected = Buffer.from(signature(secret, tenantId, payload).toString('base64url'));
  const given = Buffer.from(sent);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const parts = z.tuple([z.string(), z.string(), z.string()]).safeParse(value);
    if (!parts.success) return null;
    const [propertyId, checkIn, reference] = parts.data;
    return { propertyId, checkIn, reference };
  } catch {
    return null;
  }
}

let processSecret: string | undefined;

/** `BOOKING_LINK_SECRET`, else a random one for this process (links die with it, never guessable). */
export function linkSecret(configured: string | undefined, warn: () => void): string {
  if (configured && configured.length >= 16) return configured;
  if (!processSecret) {
    processSecret = randomBytes(32).toString('hex');
    warn();
  }
  return processSecret;
}
