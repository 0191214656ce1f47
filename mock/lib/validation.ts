import { z } from 'zod';
import { isValidDate } from './dates.ts';

/** Field errors in Laravel's shape: field name → messages. */
export type FieldErrors = Record<string, string[]>;

export type Parsed<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/** Laravel's attribute name: `check_in` → "check in". */
const label = (field: string): string => field.replaceAll('_', ' ');

/** Laravel's validation.php wording, so clients can show upstream messages verbatim. */
export const msg = {
  required: (f: string) => `The ${label(f)} field is required.`,
  string: (f: string) => `The ${label(f)} field must be a string.`,
  email: (f: string) => `The ${label(f)} field must be a valid email address.`,
  minChars: (f: string, n: number) => `The ${label(f)} field must be at least ${n} characters.`,
  maxChars: (f: string, n: number) =>
    `The ${label(f)} field must not be greater than ${n} characters.`,
  integer: (f: string) => `The ${label(f)} field must be an integer.`,
  min: (f: string, n: number) => `The ${label(f)} field must be at least ${n}.`,
  max: (f: string, n: number) => `The ${label(f)} field must not be greater than ${n}.`,
  boolean: (f: string) => `The ${label(f)} field must be true or false.`,
  selected: (f: string) => `The selected ${label(f)} is invalid.`,
  dateFormat: (f: string) => `The ${label(f)} field must match the format Y-m-d.`,
  after: (f: string, other: string) =>
    `The ${label(f)} field must be a date after ${label(other)}.`,
  afterToday: (f: string) => `The ${label(f)} field must be a date after or equal to today.`,
  uuid: (f: string) => `The ${label(f)} field must be a valid UUID.`,
  format: (f: string) => `The ${label(f)} field format is invalid.`,
  taken: (f: string) => `The ${label(f)} has already been taken.`,
};

// Laravel's ConvertEmptyStringsToNull: blank values count as absent.
const blankToUndefined = (v: unknown): unknown =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

/** Laravel `required`. */
export const required = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema);

/** Laravel `nullable`/`sometimes`: absent or blank passes as undefined. */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(blankToUndefined, schema.optional());

const typeError = (f: string, wrongType: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? msg.required(f) : wrongType;

export function str(f: string, rules: { min?: number; max?: number } = {}) {
  let s = z.string({ error: typeError(f, msg.string(f)) });
  if (rules.min !== undefined) s = s.min(rules.min, { error: msg.minChars(f, rules.min) });
  if (rules.max !== undefined) s = s.max(rules.max, { error: msg.maxChars(f, rules.max) });
  return s;
}

export const email = (f: string, max = 255) =>
  str(f, { max }).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: msg.email(f) });

// Query strings carry numbers as text; Laravel's `integer` accepts "5".
const toNumber = (v: unknown): unknown =>
  typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;

export function int(f: string, rules: { min?: number; max?: number } = {}) {
  let n = z.number({ error: typeError(f, msg.integer(f)) }).int({ error: msg.integer(f) });
  if (rules.min !== undefined) n = n.min(rules.min, { error: msg.min(f, rules.min) });
  if (rules.max !== undefined) n = n.max(rules.max, { error: msg.max(f, rules.max) });
  return z.preprocess(toNumber, n);
}

const BOOLS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

export const bool = (f: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' || typeof v === 'number' ? (BOOLS[String(v)] ?? v) : v),
    z.boolean({ error: typeError(f, msg.boolean(f)) }),
  );

export const oneOf = <T extends string>(f: string, values: readonly [T, ...T[]]) =>
  z.enum(values, { error: (iss) => (iss.input === undefined ? msg.required(f) : msg.selected(f)) });

export const date = (f: string) =>
  z
    .string({ error: typeError(f, msg.dateFormat(f)) })
    .refine(isValidDate, { error: msg.dateFormat(f) });

export const uuid = (f: string) =>
  z
    .string({ error: typeError(f, msg.uuid(f)) })
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
      error: msg.uuid(f),
    });

/** Runs a schema and folds zod issues into Laravel's `errors` map. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): Parsed<z.output<T>> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.') || 'body';
    const list = (errors[field] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return { ok: false, errors };
}

/** Adds one message to an errors map (for checks that need state: exists, unique…). */
export function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}
