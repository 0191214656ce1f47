import type { Tenant } from './schema.ts';
import { memo } from '../memo.ts';

/**
 * A value for a custom property in an inline `<style>`: the schema already restricts colours and fonts,
 * this drops anything that could still end the declaration, the rule or the element.
 */
export function cssValue(value: string): string {
  return value.replace(/[<>{};\\@]|\/\*|\*\//g, '');
}

/** `--name:value;…` with every value passed through `cssValue`. */
function declarations(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([name, value]) => `--${name}:${cssValue(value)}`)
    .join(';');
}

// Every page renders its tenant's theme and hashes it for the CSP: made once per tenant.
/** The tenant's theme as CSS custom properties, light by default and dark under `prefers-color-scheme`. */
export const themeCss = memo((tenant: Tenant): string => {
  const { colors, dark, fontStack, headingFontStack, logo } = tenant.theme;
  const light = declarations({
    // The header keeps the logo tall enough to read (SiteHeader.astro): its width for a given height.
    ...(logo && { 'logo-ratio': String(logo.width / logo.height) }),
    'color-primary': colors.primary,
    'color-on-primary': colors.onPrimary,
    // The header keeps the brand colour in dark mode too (no pastel bar): set once, never overridden.
    'color-brand': colors.primary,
    'color-on-brand': colors.onPrimary,
    'color-accent': colors.accent,
    'color-bg': colors.background,
    'color-text': colors.text,
    'color-muted': colors.muted,
    'color-surface': colors.surface,
    'font-body': fontStack,
    'font-heading': headingFontStack ?? fontStack,
  });
  const darkVars = declarations({
    'color-primary': dark.primary ?? colors.primary,
    'color-on-primary': dark.onPrimary ?? (dark.primary ? '#0b0c0e' : colors.onPrimary),
    'color-accent': dark.accent ?? colors.accent,
    'color-bg': dark.background,
    'color-text': dark.text,
    'color-muted': dark.muted,
    'color-surface': dark.surface,
  });
  return `:root{${light};color-scheme:light dark}@media (prefers-color-scheme:dark){:root{${darkVars}}}`;
});
