import { describe, expect, it } from 'vitest';
import { bookerText, textMail } from '../../../src/lib/booking/mail/text.ts';

// Booking e-mails go to an address nobody checked and carry the name the booker typed: only the
// addresses the site itself writes become links; the booker's text is never a link, nor something a
// mail client would turn into one.
describe('booking e-mail text', () => {
  it('links only the addresses the site wrote, never one inside text the booker chose', () => {
    const greeting = `Hello ${bookerText('https://evil.example/verify')},`;
    const { text, html } = textMail(
      greeting,
      ['See your booking: https://hotel.example/stay/manage/abc', 'http://elsewhere.example/x'],
      'Sent by https://hotel.example/',
      ['https://hotel.example/stay/manage/abc', 'https://hotel.example/'],
    );
    expect(html).toContain(
      '<a href="https://hotel.example/stay/manage/abc">https://hotel.example/stay/manage/abc</a>',
    );
    expect(html).toContain('<a href="https://hotel.example/">https://hotel.example/</a>');
    expect(html.match(/<a /g)).toHaveLength(2);
    expect(html).not.toContain('href="http://elsewhere.example');
    for (const part of [text, html]) {
      expect(part).not.toContain('https://evil.example');
      expect(part).not.toContain('evil.example');
      expect(part).toContain('evil[.]example/verify');
    }
  });

  it('keeps a name one line, without direction overrides, and bounded', () => {
    expect(bookerText('Heidi\r\nBcc: victim@example.com')).toBe('Heidi Bcc: victim@example[.]com');
    expect(bookerText('\u202Egnp.exe\u202C Anna\u2066')).toBe('gnp[.]exe Anna');
    expect(bookerText('J.R. Müller-Lüdenscheidt')).toBe('J.R. Müller-Lüdenscheidt');
    expect(bookerText('www.evil.com')).toBe('www[.]evil[.]com');
    const long = bookerText('A'.repeat(500));
    expect([...long].length).toBeLessThanOrEqual(80);
    expect(long.endsWith('…')).toBe(true);
  });

  // A browser reads each of these as evil.com: an invisible character inside the name (soft
  // hyphen, zero-width space, word joiner) or another script's full stop between its labels.
  it.each([
    ['evil\u00AD.com/verify', 'evil[.]com/verify'],
    ['evil.\u200Bcom/verify', 'evil[.]com/verify'],
    ['evil\u2060.com/verify', 'evil[.]com/verify'],
    ['evil\u3002com/verify', 'evil[.]com/verify'],
    ['evil\uFF0Ecom/verify', 'evil[.]com/verify'],
    ['ｅｖｉｌ\uFF61ｃｏｍ', 'ｅｖｉｌ[.]ｃｏｍ'],
  ])('shows no address hidden in %j', (name, shown) => {
    const text = bookerText(name);
    expect(text).toBe(shown);
    // Whatever the mail client makes of it, no host named evil.com is left in the greeting.
    expect(URL.parse(`http://${text}`)?.hostname).not.toBe('evil.com');
  });

  it('keeps the joiners some scripts write names with', () => {
    expect(bookerText('Mehr\u200Cdad')).toBe('Mehr\u200Cdad');
  });
});
