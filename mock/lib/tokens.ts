import { randomInt } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
let nextId = 100; // seeded demo tokens use ids below 100

/** Sanctum-style plain-text token `<id>|<40 random alphanumerics>`. */
export function issueToken(): string {
  const secret = Array.from({ length: 40 }, () => ALNUM.charAt(randomInt(ALNUM.length))).join('');
  return `${nextId++}|${secret}`;
}
