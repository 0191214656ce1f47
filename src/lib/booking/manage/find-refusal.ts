import type { FieldErrors } from '../../failures/fields.ts';

/** A refused "find my booking" (fields missing, too many look-ups), kept for the GET after the post. */
export interface FindRefusal {
  ok: false;
  values: { email: string; reference: string };
  fields: FieldErrors;
  message: string;
}

/** What the session holds, when it is a refusal this page wrote; else undefined. */
export function findRefusal(stored: unknown): FindRefusal | undefined {
  if (!stored || typeof stored !== 'object') return undefined;
  const { ok, values, fields, message } = stored as Partial<FindRefusal>;
  if (ok !== false || !values || typeof values !== 'object' || typeof message !== 'string')
    return undefined;
  return {
    ok: false,
    values: { email: String(values.email ?? ''), reference: String(values.reference ?? '') },
    fields: fields && typeof fields === 'object' ? fields : {},
    message,
  };
}
