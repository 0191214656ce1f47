import { describe, expect, it } from 'vitest';
import {
  linkSecret,
  signManageToken,
  verifyManageToken,
} from '../../../src/lib/booking/manage/link.ts';

const SECRET = 'a-long-enough-test-secret';
const BOOKING = {
  propertyId: 'f288dd17-9e1e-5421-8b43-5674c8a96975',
  checkIn: '2027-06-01',
  reference: 'HV-12345',
};

describe('manage tokens', () => {
  const token = signManageToken(SECRET, 'harbour-times', BOOKING);

  it('names the booking it was signed for', () => {
    expect(verifyManageToken(SECRET, 'harbour-times', token)).toEqual(BOOKING);
  });

  it('is URL-safe', () => {
    expect(token).toMatch(/^[A-Za-z0-9_.-]+$/);
  });

  it.each([
    ['another tenant', SECRET, 'alpine-post', token],
    ['another secret', 'another-long-test-secret', 'harbour-times', token],
    ['a changed reference', SECRET, 'harbour-times', tamperReference(token)],
    ['a changed signature', SECRET, 'harbour-times', flipLast(token)],
    ['the same signature spelled otherwise', SECRET, 'harbour-times', respell(token)],
    ['no signature', SECRET, 'harbour-times', token.split('.')[0] ?? ''],
    ['garbage', SECRET, 'harbour-times', 'not a token'],
    ['a signed non-booking', SECRET, 'harbour-times', signedJunk()],
  ])('shows nothing for %s', (_case, secret, tenant, candidate) => {
    expect(verifyManageToken(secret, tenant, candidate)).toBeNull();
  });
});

function tamperReference(token: string): string {
  const [payload = '', sig = ''] = token.split('.');
  const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as string[];
  value[2] = 'HV-99999';
  return `${Buffer.from(JSON.stringify(value)).toString('base64url')}.${sig}`;
}

function flipLast(token: string): string {
  return token.slice(0, -2) + (token.endsWith('AA') ? 'AB' : 'AA');
}

/**
 * The signature's last letter with its spare bits changed: a 32-byte signature is 43 letters of
 * 6 bits, so the last letter's low 2 bits decode to nothing (…A and …B are the same bytes).
 */
function respell(token: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(token.slice(-1));
  const other = token.slice(0, -1) + alphabet[last ^ 1];
  const bytes = (t: string) => Buffer.from(t.split('.')[1] ?? '', 'base64url');
  expect(bytes(other).equals(bytes(token))).toBe(true);
  return other;
}

function signedJunk(): string {
  // A correctly signed payload that is not a booking triple.
  const token = signManageToken(SECRET, 'harbour-times', BOOKING);
  return token.replace(/^[^.]+/, Buffer.from('{"x":1}').toString('base64url'));
}

describe('linkSecret', () => {
  it('uses the configured secret', () => {
    expect(linkSecret('configured-secret-value', () => undefined)).toBe('configured-secret-value');
  });

  it('falls back to one random secret per process, and says so once', () => {
    let warnings = 0;
    const first = linkSecret(undefined, () => (warnings += 1));
    const second = linkSecret('short', () => (warnings += 1));
    expect(first).toHaveLength(64);
    expect(second).toBe(first);
    expect(warnings).toBe(1);
  });
});
