import { isRecord } from '../../content/records.ts';
import { isEmail, leafPaths } from './matchers.ts';

/**
 * The shape of an answer, for a person to settle what the doctor could not: each place in its
 * records with the type and a sample, secrets and personal data masked (a token, a password, an
 * e-mail, a phone number, a person's name or address never leave the API whole).
 */

const SECRET_KEY = /token|secret|password|passwd|api[-_]?key|authorization|signature/i;
const PERSONAL_KEY =
  /name|mail|phone|tel|mobile|address|street|birth|passport|iban|card|guest|customer/i;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `list of ${value.length}`;
  return typeof value;
}

/** `g…@third.test`, `G…`, `***`: what a sample may show of a value at `path`. */
export function maskedSample(path: string, value: unknown): string {
  if (typeof value === 'object' && value !== null) return '';
  const text = String(value);
  if (SECRET_KEY.test(path)) return '***';
  if (isEmail(text)) return `${text[0] ?? ''}…@${text.split('@')[1] ?? ''}`;
  const phone = /^\+?[\d\s()./-]{7,}$/.test(text) && !/^\d{4}-\d{2}-\d{2}/.test(text);
  if (phone && /\d{6,}/.test(text.replace(/\D/g, ''))) return `${text.slice(0, 3)}…`;
  if (PERSONAL_KEY.test(path) && typeof value === 'string') return `${text[0] ?? ''}…`;
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** One line per place in the first record (`path: type = sample`), at most `most` lines. */
export function shapeLines(records: readonly unknown[], most = 30): string[] {
  const [first] = records;
  if (first === undefined) return [];
  const line = (path: string, value: unknown) => {
    const sample = maskedSample(path, value);
    return `${path}: ${typeOf(value)}${sample === '' ? '' : ` = ${sample}`}`;
  };
  const lines = leafPaths(first, 3).flatMap(({ path, value }) => {
    // A list of records: the places of its first element as well (`rooms[].label`).
    const inner: unknown = Array.isArray(value) ? value[0] : undefined;
    const nested = isRecord(inner)
      ? leafPaths(inner, 2).map((leaf) => line(`${path}[].${leaf.path}`, leaf.value))
      : [];
    return [line(path, value), ...nested];
  });
  return lines.length > most ? [...lines.slice(0, most), `… ${lines.length - most} more`] : lines;
}
