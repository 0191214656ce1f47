import { describe, expect, it } from 'vitest';
import { hasLookAlikeLetters, normalizeEmail } from '../../../src/lib/booking/domain/email.ts';
import { detailsErrors } from '../../../src/lib/booking/domain/rules.ts';
import { english } from '../../fixtures/english.ts';

describe('e-mail addresses', () => {
  it.each([
    ['zed-x@example.com'],
    ['Zed-x@Example.com'],
    ['zed-x\u200B@example.com'],
    ['zed-x@example.com.'],
    ['\uFEFFＺｅｄ-x@example.com\u200D'],
    ['  zed-x@EXAMPLE.COM  '],
    // A phone's smart punctuation, or a dash pasted from a document, for the hyphen.
    ['zed\u2010x@example.com'],
    ['zed\u2013x@example.com'],
    ['zed\u2212x@example.com'],
  ])('%j is one spelling', (typed) => {
    expect(normalizeEmail(typed)).toBe('zed-x@example.com');
  });

  it.each([['user@bücher.de'], ['user@xn--bcher-kva.de'], ['User@XN--BCHER-KVA.DE.']])(
    '%j is one guest whichever browser sent it (Chromium sends the domain as punycode)',
    (typed) => {
      expect(normalizeEmail(typed)).toBe('user@bücher.de');
    },
  );

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
    const errors = detailsErrors(details);
    expect(english(errors['email'])).toEqual([expect.stringMatching(/another alphabet/)]);
    // As a browser sends it from an e-mail field: the domain in punycode.
    expect(
      english(detailsErrors({ ...details, email: 'zed-x@xn--exmple-4nf.com' })['email']),
    ).toEqual([expect.stringMatching(/another alphabet/)]);
    expect(detailsErrors({ ...details, email: 'zed-x@xn--bcher-kva.example' })).toEqual({});
  });

  it.each([
    ['a variation selector', 'zed-x\uFE0F@example.com'],
    ['a variation selector in the supplement', 'zed\u{E0100}-x@example.com'],
    ['a tag character', 'zed-x\u{E0061}@example.com'],
    ['a tag sequence', '\u{E0001}zed-x@exa\u{E007F}mple.com'],
    ['a Mongolian variation selector', 'zed-x@exam\u180Bple.com'],
    ['a Hangul filler', 'zed-x\u3164@example.com'],
    ['a musical formatting mark', 'zed-x@example\u{1D173}.com'],
    ['an unassigned default-ignorable', 'zed-x\u2065@example.com'],
    ['an ignorable between a letter and its accent-free twin', 'ZED-X\u200D@EXAMPLE.COM\uFE0E'],
    ['mathematical letters', '\u{1D433}\u{1D41E}\u{1D41D}-x@example.com'],
  ])('removes %s (Default_Ignorable_Code_Point)', (_label, typed) => {
    expect(normalizeEmail(typed)).toBe('zed-x@example.com');
    expect(normalizeEmail(normalizeEmail(typed))).toBe('zed-x@example.com');
  });

  it.each([
    ['a Latin alpha "ɑ"', 'zed-x@ex\u0251mple.com'],
    ['a dotless "ı"', '\u0131zed-x@example.com'],
    ['a dental click "ǀ"', 'zed-x@examp\u01C0e.com'],
    ['a script "ɡ"', 'zed-x@gmail.com'.replace('g', '\u0261')],
    ['a Latin iota "ɩ"', 'zed-x@\u0269cloud.com'],
    ['a Latin "ʋ"', 'zed-x@ʋnited.example'],
    ['a Cyrillic palochka "ӏ"', 'zed-x@examp\u04CFe.com'],
    ['a Greek omicron', 'zed-x@example.c\u03BFm'],
    ['a look-alike beside an accent', 'zed-\u0251-m\u00FCller@example.com'],
    ['a look-alike hidden behind a variation selector', 'zed-x@ex\u0251\uFE0Fmple.com'],
  ])('refuses %s as a look-alike', (_label, typed) => {
    expect(hasLookAlikeLetters(normalizeEmail(typed))).toBe(true);
  });

  it.each([
    ['josé@exämple.de'],
    ['müller@bücher.example'],
    ['søren.łukasz@example.dk'],
    ['иван@пример.рф'],
    ['zed-x@παράδειγμα.gr'],
    ['用户@例子.广告'],
    ['zed+x1@example.com'],
    ['straße@example.de'],
  ])('takes %s, a real address', (typed) => {
    expect(hasLookAlikeLetters(normalizeEmail(typed))).toBe(false);
  });

  it('makes one guest of every spelling it takes: the rest are refused (issue 33)', () => {
    const spellings = [
      'zed-x@example.com',
      'Zed-X@Example.COM.',
      'zed-x\uFE0F@example.com',
      'zed-x\u{E0061}@example.com',
      'zed-x@ex\u0251mple.com',
      'zed-x@\u0131example.com',
      'zed-x@examp\u01C0e.com',
      'zed-x@ex\u0430mple.com',
      'zed-x@xn--exmple-4nf.com',
      'ｚｅｄ-x@example.com',
      'zed-x\u00AD@example.com',
      'zed-x@example.com\u{E007F}',
      'zed-x\u180E@example.com',
      'zed-x@exampl\u0435.com',
    ];
    const taken = spellings.filter((email) => !hasLookAlikeLetters(normalizeEmail(email)));
    expect(new Set(taken.map(normalizeEmail))).toEqual(new Set(['zed-x@example.com']));
    expect(taken.length).toBeGreaterThan(5);
  });
});

describe('an address that reads as another (or several) to the mail library', () => {
  const details = { firstName: 'Zed', lastName: 'X', phone: '', nationality: '', notes: '' };
  // nodemailer reads each of these as (or as including) victim@example.com: a display name, a
  // comment, a list. Each would be another count of "mails to this address", so a few bookings
  // could mail one victim without end; none is an address a guest types.
  it.each([
    ['"1"<victim@example.com>'],
    ['a<victim@example.com>'],
    ['a,victim@example.com'],
    ['a;victim@example.com'],
    ['x(c)victim@example.com'],
    ['x"y"@example.com'],
    ['victim@example.com>'],
    ['victim@[127.0.0.1]x.com'],
  ])('%s is refused at the field', (email) => {
    expect(english(detailsErrors({ ...details, email })['email'])).toEqual([
      expect.stringMatching(/such as name@example\.com/),
    ]);
  });

  it.each([['josé@exämple.de'], ["o'hara@example.co.uk"]])('%s is still taken', (email) =>
    expect(detailsErrors({ ...details, email })).toEqual({}),
  );

  it("reads o’brien+stay@example.com (a phone’s apostrophe) as the one address o'brien+stay@example.com", () => {
    const email = 'o’brien+stay@example.com';
    expect(normalizeEmail(email)).toBe("o'brien+stay@example.com");
    expect(detailsErrors({ ...details, email })).toEqual({});
  });
});
