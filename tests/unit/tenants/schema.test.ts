import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  parseTenantsFile,
  parseTenantsText,
  TenantsConfigError,
} from '../../../src/lib/tenants/schema.ts';
import { tenantInput } from '../../fixtures/tenant.ts';

const shipped: unknown = JSON.parse(
  readFileSync(new URL('../../../tenants.json', import.meta.url), 'utf8'),
);

/** A valid entry with some keys replaced, possibly by invalid values. */
function validTenant(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...tenantInput(), ...overrides };
}

function errorOf(raw: unknown): string {
  try {
    parseTenantsFile(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(TenantsConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the file to be rejected');
}

describe('tenants.json schema', () => {
  it('accepts the shipped file with at least three tenants and applies defaults', () => {
    const file = parseTenantsFile(shipped);
    expect(file.tenants.length).toBeGreaterThanOrEqual(3);
    const gazette = parseTenantsFile({ tenants: [validTenant()] }).tenants[0];
    expect(gazette?.features).toEqual({
      epaper: true,
      streams: true,
      comments: true,
      booking: false,
    });
    expect(gazette?.theme.fontStack).toMatch(/system-ui/);
    expect(gazette?.publishing.baseUrl).toBe('https://api.example.com/api/v1');
  });

  it.each([
    [
      'a static origin with a path',
      { static: { origin: 'https://gazette.example.com/news' } },
      'tenant "gazette" (tenants[0]) → static.origin: Expected an origin',
    ],
    [
      'an unknown key in the static block',
      { static: { origin: 'https://gazette.example.com', subPath: '/x' } },
      'tenant "gazette" (tenants[0]) → static: Unknown key "subPath"',
    ],
    [
      'an unknown key',
      { colour: 'red' },
      'tenant "gazette" (tenants[0]) → (root): Unknown key "colour"',
    ],
    [
      'a bad colour',
      { theme: { colors: { primary: 'blue', accent: '#fff' } } },
      'tenant "gazette" (tenants[0]) → theme.colors.primary: Expected a hex colour',
    ],
    [
      'a host with a port',
      { hosts: ['gazette.example.com:8080'] },
      'tenant "gazette" (tenants[0]) → hosts.0: Expected a lower-case host name',
    ],
    [
      'an unknown time zone',
      { timeZone: 'Mars/Olympus' },
      '→ timeZone: Expected an IANA time zone',
    ],
    ['a bad locale', { locale: 'not a locale' }, '→ locale: Expected a BCP 47 locale'],
    ['a relative API address', { publishing: { baseUrl: '/api/v1' } }, '→ publishing.baseUrl:'],
    [
      'a secret instead of an env var name',
      { publishing: { baseUrl: 'https://a.example/api/v1', tokenEnv: '1|abcdef' } },
      '→ publishing.tokenEnv: Expected the NAME of an environment variable',
    ],
    [
      'an e-paper plan that is not a slug',
      { publishing: { baseUrl: 'https://a.example/api/v1', epaperPlans: ['Digital + E-Paper'] } },
      '→ publishing.epaperPlans.0: Expected a plan slug',
    ],
    [
      'an e-paper plan named twice',
      { publishing: { baseUrl: 'https://a.example/api/v1', epaperPlans: ['annual', 'annual'] } },
      '→ publishing.epaperPlans: List each plan once',
    ],
    [
      'booking without lodging',
      { features: { booking: true } },
      '→ features.booking: features.booking needs a lodging section',
    ],
    [
      'a reserved id',
      { id: 'posts' },
      'tenant "posts" (tenants[0]) → id: This id is a reserved route name',
    ],
    [
      'an embed origin with a path',
      {
        lodging: {
          baseUrl: 'https://l.example/api/v1',
          tokenEnv: 'T',
          propertyIds: ['0b6f9a8e-2c1d-4e5f-8a9b-0c1d2e3f4a5b'],
          allowedEmbedOrigins: ['https://partner.example/page'],
        },
      },
      '→ lodging.allowedEmbedOrigins.0: Expected an origin',
    ],
    [
      'lodging with an e-mail but no password',
      {
        lodging: {
          baseUrl: 'https://l.example/api/v1',
          emailEnv: 'LODGING_EMAIL',
          propertyIds: ['0b6f9a8e-2c1d-4e5f-8a9b-0c1d2e3f4a5b'],
        },
      },
      '→ lodging.emailEnv: Set both emailEnv and passwordEnv, or neither',
    ],
  ])('rejects %s with a message naming tenant and field', (_case, overrides, expected) => {
    expect(errorOf({ tenants: [validTenant(overrides)] })).toContain(expected);
  });

  it('accepts a static block with the copy and the live origins', () => {
    const file = parseTenantsFile({
      tenants: [
        validTenant({
          static: {
            origin: 'https://static.gazette.example',
            liveOrigin: 'https://gazette.example.com',
          },
        }),
      ],
    });
    expect(file.tenants[0]?.static).toEqual({
      origin: 'https://static.gazette.example',
      liveOrigin: 'https://gazette.example.com',
    });
  });

  it('rejects duplicate ids and hosts shared between tenants', () => {
    const message = errorOf({
      tenants: [validTenant(), validTenant({ hosts: ['gazette.example.com'] })],
    });
    expect(message).toContain('Duplicate tenant id "gazette"');
    expect(message).toContain('Host "gazette.example.com" is already used by tenant "gazette"');
  });

  it('rejects an unknown top-level key and an empty list', () => {
    expect(errorOf({ tenants: [validTenant()], extra: true })).toContain(
      'tenants.json → (root): Unknown key "extra"',
    );
    expect(errorOf({ tenants: [] })).toContain('Configure at least one tenant');
  });

  it('reports broken JSON clearly, with line and column', () => {
    expect(() => parseTenantsText('{\n  "tenants": [\n    }\n')).toThrow(
      /Invalid tenants.json: not valid JSON at line 3, column 5/,
    );
  });

  it('accepts a file that starts with a UTF-8 byte order mark', () => {
    const text = `\uFEFF${JSON.stringify({ tenants: [validTenant()] })}`;
    expect(parseTenantsText(text).tenants[0]?.id).toBe('gazette');
  });
});

describe('tenants.json values that reach HTML', () => {
  const theme = (extra: Record<string, unknown>) => ({
    theme: { colors: { primary: '#123456', accent: '#abcdef' }, ...extra },
  });
  const logo = (src: string) => theme({ logo: { src, alt: 'Logo', width: 10, height: 10 } });

  it.each([
    [
      'a font stack that closes the style element',
      theme({ fontStack: 'x}</style><script>alert(1)</script>' }),
      '→ theme.fontStack: Expected a comma-separated list of font names',
    ],
    [
      'a font stack with a declaration break',
      theme({ fontStack: 'serif;background:url(x)' }),
      '→ theme.fontStack: Expected',
    ],
    [
      'a heading font stack with an unbalanced quote',
      theme({ headingFontStack: '"Georgia, serif' }),
      '→ theme.headingFontStack: Expected',
    ],
    [
      'a javascript: logo',
      logo('javascript:alert(1)'),
      '→ theme.logo.src: Expected an http(s) URL or a site path',
    ],
    [
      'a data: logo',
      logo('data:image/svg+xml,<svg/>'),
      '→ theme.logo.src: Expected an http(s) URL',
    ],
    ['a protocol-relative logo', logo('//evil.example/x.png'), '→ theme.logo.src: Expected'],
    [
      'a colour with a payload',
      theme({ colors: { primary: '#123456;}</style>', accent: '#abcdef' } }),
      '→ theme.colors.primary: Expected a hex colour',
    ],
  ])('rejects %s', (_case, overrides, expected) => {
    expect(errorOf({ tenants: [validTenant(overrides)] })).toContain(expected);
  });

  it.each([
    [
      'quoted and bare font names',
      theme({ fontStack: '"Source Serif 4", \'Noto Serif\', Georgia, serif' }),
    ],
    ['an https logo', logo('https://cdn.example.com/logo.svg')],
    ['a site-relative logo', logo('/logo.svg')],
  ])('accepts %s', (_case, overrides) => {
    expect(parseTenantsFile({ tenants: [validTenant(overrides)] }).tenants).toHaveLength(1);
  });
});
