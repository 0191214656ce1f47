/** A plain JSON object (not null, not an array): what a parsed body's fields are read from. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
