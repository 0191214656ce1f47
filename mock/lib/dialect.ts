import type { Context } from 'hono';
import { z } from 'zod';

/**
 * Which reading of the contracts' silences the mock serves (docs/api-assumptions.md, "Dialects"):
 * `default` is Masthead's own guess, `alt` the other plausible choice a real Laravel app makes.
 */
export const DIALECTS = ['default', 'alt'] as const;
export type Dialect = (typeof DIALECTS)[number];
export const DialectSchema = z.enum(DIALECTS);

/** `MOCK_DIALECT`; an unknown value is a start-up error, not a silent default. */
export function envDialect(): Dialect | undefined {
  const raw = process.env['MOCK_DIALECT']?.trim();
  if (!raw) return undefined;
  const parsed = DialectSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`MOCK_DIALECT must be one of ${DIALECTS.join(', ')}`);
  return parsed.data;
}

/** The dialect the app stored on this request (shared helpers such as `invalid` read it). */
export const dialectOf = (c: Context): Dialect =>
  (c.get('dialect' as never) as Dialect | undefined) ?? 'default';
