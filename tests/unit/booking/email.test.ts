import { describe, expect, it } from 'vitest';
import { hasLookAlikeLetters, normalizeEmail } from '../../../src/lib/booking/email.ts';
import { detailsErrors } from '../../../src/lib/booking/rules.ts';
import { SERVER_CHECKS } from '../../../src/lib/booking/server-checks.ts';
import { english } from '../../fixtures/english.ts';

describe('e-mail addresses', () => {
  it.each([
    ['zed-x@example.com'],
    ['Zed-x@Example.com'],
    ['zed-x\u200B@example.com'],
    ['zed-x@example.com.'],
    ['\uFEFFＺｅｄ-x@example.com\u200D'],
    ['  zed-x@EXAMPLE.COM  '],
  ])('%j is one spelling', (typed) => {
    expect(normalizeEmail(typed)).toBe('zed-x@example.com');
  });

  it.each([
    ['zed-x@ex\u0430mple.com', true], // Cyrillic а among Latin letters
    ['zed-x@\u0430\u0440\u0440\u04CF\u0435.com', true], // "аррӏе": Cyrillic look-alikes only
    ['z\u0435d-x@example.com', true], // Cyrillic е in the local part
    ['zed-x@παράδειγμα.gr', false], // a real Greek domain
    ['иван@пример.рф', false], // a real Cyrillic address
    ['josé@exämple.de', false], // accented Latin
    ['zed-x@example.com', false],
  ])('%s has look-alike letters: %s', (email, expected) => {
    expect(hasLookAlikeLetters(normalizeEmail(email))).toBe(expected);
  });

  it('the server refuses a look-alike address with a clear message at the field', () => {
    const details = {
      firstName: 'Zed',
      lastName: 'X',
      email: 'zed-x@ex\u0430mple.com',
      phone: '',
      nationality: '',
      notes: '',
    };
    const errors = detailsErrors(details, SERVER_CHECKS);
    expect(english(errors['email'])).toEqual([expect.stringMatching(/another alphabet/)]);
    // As a browser sends it from an e-mail field: the domain in punycode.
    expect(
      english(
        detailsErrors({ ...details, email: 'zed-x@xn--exmple-4nf.com' }, SERVER_CHECKS)['email'],
      ),
    ).toEqual([expect.stringMatching(/another alphabet/)]);
    expect(
      detailsErrors({ ...details, email: 'zed-x@xn--bcher-kva.example' }, SERVER_CHECKS),
    ).toEqual({});
    // The widget checks shapes only (no letter tables in its JavaScript): the server's answer to
    // the booking brings the guest back to this field (e2e: booking-flow.spec.ts).
    expect(detailsErrors(details)).toEqual({});
  });
});
