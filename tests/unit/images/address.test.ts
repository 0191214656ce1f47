import { describe, expect, it } from 'vitest';
import { imagePath, parseImagePath, type ImageRequest } from '../../../src/lib/images/address.ts';
import { srcsetWidths, widthAtLeast } from '../../../src/lib/images/ladder.ts';
import { PATH_SPELLINGS } from './spellings.ts';

const SECRET = 'test-secret-of-enough-length';
const source = 'https://api.example/media/daily-planet/covers/a.jpg';
const request: ImageRequest = { target: { kind: 'source', source }, width: 800, format: 'avif' };

describe('signed image addresses', () => {
  it('reads back what it signed, crops and edition pages included', () => {
    for (const r of [
      request,
      { ...request, width: 1200, format: 'jpeg', crop: '16x9' },
      {
        target: { kind: 'edition-page', edition: 'weekend-2026', page: 12 },
        width: 160,
        format: 'webp',
      },
    ] satisfies ImageRequest[]) {
      expect(parseImagePath(SECRET, imagePath(SECRET, r))).toEqual({ ok: true, request: r });
    }
  });

  it('signs each address with the secret it is given, the same picture asked for again too', () => {
    const other = 'other-secret-of-enough-length';
    const first = imagePath(SECRET, request);
    const withOther = imagePath(other, request);
    expect(withOther).not.toBe(first);
    expect(imagePath(SECRET, request)).toBe(first);
    expect(parseImagePath(other, withOther)).toMatchObject({ ok: true });
    expect(parseImagePath(SECRET, withOther)).toMatchObject({ ok: false, status: 403 });
    const page = { ...request, target: { kind: 'edition-page', edition: 'a', page: 2 } } as const;
    expect(imagePath(SECRET, page)).not.toBe(imagePath(SECRET, { ...page, width: 1600 }));
  });

  it('keeps the upstream URL out of the address in plain text', () => {
    expect(imagePath(SECRET, request)).not.toContain('api.example');
    expect(imagePath(SECRET, request)).toMatch(/^\/_img\/u\/[\w-]+\/800\/[\w-]{22}\.avif$/);
  });

  it.each([
    ['another secret', (p: string) => p, 'other-secret-of-enough-length'],
    ['a changed width', (p: string) => p.replace('/800/', '/1600/'), SECRET],
    ['a changed format', (p: string) => p.replace('.avif', '.webp'), SECRET],
    ['an added crop', (p: string) => p.replace('/800/', '/800-1x1/'), SECRET],
    [
      'another source',
      (p: string) =>
        p.replace(
          /\/u\/[\w-]+\//,
          `/u/${Buffer.from('https://evil.example/x.jpg').toString('base64url')}/`,
        ),
      SECRET,
    ],
    [
      'a tampered signature',
      (p: string) => p.replace(/\/([\w-])[\w-]{21}\./, '/AAAAAAAAAAAAAAAAAAAAAA.'),
      SECRET,
    ],
  ])('refuses %s with 403', (_label, change, secret) => {
    const parsed = parseImagePath(secret, change(imagePath(SECRET, request)));
    expect(parsed).toMatchObject({ ok: false, status: 403 });
  });

  it.each([
    ['a width off the ladder', '/_img/u/aHR0cHM6Ly9hLmI/801/AAAAAAAAAAAAAAAAAAAAAA.avif'],
    ['an unknown format', '/_img/u/aHR0cHM6Ly9hLmI/800/AAAAAAAAAAAAAAAAAAAAAA.gif'],
    [
      'a source that is no web address',
      `/_img/u/${Buffer.from('file:///etc/passwd').toString('base64url')}/800/AAAAAAAAAAAAAAAAAAAAAA.jpg`,
    ],
    ['a bad page number', '/_img/e/slug/0/800/AAAAAAAAAAAAAAAAAAAAAA.jpg'],
    ['a short signature', '/_img/u/aHR0cHM6Ly9hLmI/800/AAAA.jpg'],
  ])('answers %s with 400', (_label, path) => {
    expect(parseImagePath(SECRET, path)).toMatchObject({ ok: false, status: 400 });
  });
});

describe('one spelling per picture (issue 33)', () => {
  // 52 bytes: its base64url has spare bits in the last letter.
  const picture: ImageRequest = {
    ...request,
    target: { kind: 'source', source: 'https://api.example/media/daily-planet/covers/ab.jpg' },
  };
  const canonical = imagePath(SECRET, picture);
  const edition: ImageRequest = {
    target: { kind: 'edition-page', edition: 'weekend-2026', page: 12 },
    width: 160,
    format: 'webp',
  };

  it('reads the address it wrote', () => {
    expect(parseImagePath(SECRET, canonical)).toEqual({ ok: true, request: picture });
  });

  it.each(PATH_SPELLINGS)('refuses %s with %i', (_label, change, status) => {
    const spelled = change(canonical);
    expect(spelled).not.toBe(canonical);
    expect(parseImagePath(SECRET, spelled)).toMatchObject({ ok: false, status });
  });

  it.each([
    ['a letter escaped', (p: string) => p.replace('/weekend', '/%77eekend')],
    ['a dash escaped', (p: string) => p.replace('weekend-', 'weekend%2D')],
    ['a broken escape', (p: string) => p.replace('/weekend', '/%E0%A4weekend')],
    ['a leading zero in the page', (p: string) => p.replace('/12/', '/012/')],
  ])('refuses an edition page with %s', (_label, change) => {
    const spelled = change(imagePath(SECRET, edition));
    expect(parseImagePath(SECRET, spelled)).toMatchObject({ ok: false });
  });

  it.each([
    ['an upper-case extension', (p: string) => p.replace('.avif', '.AVIF')],
    [
      'spare bits set in the signature',
      (p: string) => p.replace(/(.)\.avif$/, (_a, c: string) => `${c === 'A' ? 'B' : 'A'}.avif`),
    ],
  ])('refuses %s (never a second copy)', (_label, change) => {
    expect(parseImagePath(SECRET, change(canonical))).toMatchObject({ ok: false });
  });
});

describe('the width ladder', () => {
  it('lists widths up to twice the layout width, never far beyond the source', () => {
    expect(srcsetWidths(400)).toEqual([160, 320, 480, 640, 800]);
    expect(srcsetWidths(900, 1000)).toEqual([160, 320, 480, 640, 800, 1200]);
    expect(srcsetWidths(80)).toEqual([160]);
  });

  it('lists no step below what a layout shown at least `minDisplay` wide picks at 1×', () => {
    expect(srcsetWidths(704, 1600, 288)).toEqual([320, 480, 640, 800, 1200, 1600]);
    expect(srcsetWidths(560, undefined, 259)).toEqual([320, 480, 640, 800, 1200]);
    // A source narrower than that still has its one step.
    expect(srcsetWidths(704, 200, 288)).toEqual([320]);
  });

  it('rounds a wanted width up to the next step, the largest beyond it', () => {
    expect(widthAtLeast(390 * 3)).toBe(1200);
    expect(widthAtLeast(5000)).toBe(2400);
  });
});
