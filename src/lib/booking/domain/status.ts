/**
 * What a lodging booking status means to a guest. The contract names no status values, and real
 * lodging APIs spell them differently: known spellings get honest words, anything else is shown
 * neutrally, never as confirmed.
 */
export type StatusKind = 'received' | 'confirmed' | 'cancelled' | 'other';

const KINDS: Readonly<Record<string, StatusKind>> = {
  pending: 'received',
  tentative: 'received',
  requested: 'received',
  on_hold: 'received',
  confirmed: 'confirmed',
  booked: 'confirmed',
  guaranteed: 'confirmed',
  // No `checked_in`: a stay under way is not a booking to confirm or cancel (shown in its own word).
  cancelled: 'cancelled',
  canceled: 'cancelled',
};

/** Besides a cancelled one, the statuses that release the room: the rest hold it (unknown ones too). */
const RELEASES_ROOM = new Set(['no_show', 'checked_out', 'declined', 'rejected']);

/** One spelling of a status: `Checked-In` is `checked_in`. */
export const normalizeStatus = (status: string): string =>
  status
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

export function statusKind(status: string): StatusKind {
  return KINDS[normalizeStatus(status)] ?? 'other';
}

/** Whether a booking with this status still occupies its room (for the duplicate check). */
export function holdsRoom(status: string): boolean {
  return statusKind(status) !== 'cancelled' && !RELEASES_ROOM.has(normalizeStatus(status));
}
