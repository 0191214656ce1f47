import type { LodgingClient } from '../lodging/client.ts';
import { classify } from '../failures/classify.ts';
import type { BookingRequest } from './schema.ts';
import { guestInput } from './wire.ts';

/** The lodging guest for the booking's e-mail address: the existing one, else a new one. */
export async function findOrCreateGuest(
  api: LodgingClient,
  input: BookingRequest,
): Promise<string> {
  const email = input.email.trim().toLowerCase();
  const find = async (): Promise<string | undefined> => {
    const page = await api.listGuests({ search: email, perPage: 100 }, { fresh: true });
    const guest = page.items.find((g) => (g.email ?? '').toLowerCase() === email);
    return guest === undefined ? undefined : String(guest.id);
  };
  const existing = await find();
  if (existing) return existing;
  try {
    const created = await api.createGuest(guestInput(input, email));
    return String(created.id);
  } catch (error) {
    // Someone created the same guest in between: use theirs.
    const failure = classify(error);
    if (failure.kind === 'invalid' && failure.fields['email']) {
      const again = await find();
      if (again) return again;
    }
    throw error;
  }
}
