import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { dialectOf } from './dialect.ts';
import type { FieldErrors } from './validation.ts';

/** Laravel's error body: `{ message }`, plus `errors` for 422. */
export const problem = (c: Context, status: ContentfulStatusCode, message: string) =>
  c.json({ message }, status);

export const unauthenticated = (c: Context) => problem(c, 401, 'Unauthenticated.');
export const forbidden = (c: Context) => problem(c, 403, 'This action is unauthorized.');
export const notFound = (c: Context, message = 'Route not found.') => problem(c, 404, message);

/**
 * 422 whose `message` is the first field message (ValidationException rendering); the alt dialect
 * adds Laravel 10's " (and N more errors)" when there are more.
 */
export function invalid(c: Context, errors: FieldErrors) {
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  const more = Object.values(errors).flat().length - 1;
  const suffix =
    dialectOf(c) === 'alt' && more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'})` : '';
  return c.json({ message: first + suffix, errors }, 422);
}

/** JSON body as a plain object; anything else (no body, bad JSON, arrays) reads as `{}`. */
export async function readBody(c: Context): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await c.req.json();
    return body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Bearer token from the Authorization header; `undefined` when no header was sent. */
export function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization');
  if (header === undefined) return undefined;
  return /^Bearer\s+(.+)$/i.exec(header.trim())?.[1] ?? '';
}

/** The issued token the Bearer header names; `undefined` when none was sent or it is unknown. */
export function sentToken<T>(c: Context, tokens: ReadonlyMap<string, T>): T | undefined {
  const raw = bearer(c);
  return raw === undefined ? undefined : tokens.get(raw);
}

/** Client IP for per-IP rate limits. */
export function clientIp(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)
    ?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
