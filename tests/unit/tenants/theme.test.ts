import { describe, expect, it } from 'vitest';
import { parseTenantsFile, type Tenant } from '../../../src/lib/tenants/schema.ts';
import { cssValue, themeCss } from '../../../src/lib/tenants/theme.ts';

function tenant(): Tenant {
  const [parsed] = parseTenantsFile({
    tenants: [
      {
        id: 'gazette',
        name: 'Gazette',
        hosts: ['gazette.example.com'],
        locale: 'en-GB',
        timeZone: 'Europe/London',
        theme: {
          colors: { primary: '#123456', accent: '#abcdef' },
          fontStack: '"Source Serif 4", serif',
        },
        publishing: { baseUrl: 'https://api.example.com/api/v1' },
      },
    ],
  }).tenants;
  if (!parsed) throw new Error('fixture tenant missing');
  return parsed;
}

describe('theme CSS', () => {
  it('renders the validated theme as custom properties', () => {
    const css = themeCss(tenant());
    expect(css).toContain('--color-primary:#123456');
    expect(css).toContain('--font-body:"Source Serif 4", serif');
  });

  it('cannot close the style element even if a value slipped past the schema', () => {
    const unsafe = tenant();
    unsafe.theme.fontStack = 'x}</style><script>alert(1)</script>';
    const css = themeCss(unsafe);
    expect(css).not.toMatch(/<|>/);
    expect(css.match(/\{/g)).toHaveLength(3);
    expect(cssValue('a;b/*c*/@import')).toBe('abcimport');
  });
});
