import type { LodgingClient } from '../lodging/client.ts';
import type { Guest } from '../lodging/schema.ts';
import { classify } from '../failures/classify.ts';
import { namesDiffer } from './failures.ts';
import type { BookingRequest } from './schema.ts';
import { guestInput } from './wire.ts';

/** Pages read per search before giving up (50 guests a page). */
const MAX_PAGES = 10;

/** Case, accents and spacing do not make another person: "José  Díaz" is "jose diaz". */
function sameName(a: string, b: string): boolean {
  const plain = (s: string) =>
    s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
  return plain(a) === plain(b);
}

/** The guest with exactly this e-mail among the results of `search`, following every page. */
async function findByEmail(
  api: LodgingClient,
  search: string,
  email: string,
): Promise<Guest | undefined> {
  let page: number | undefined = 1;
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n += 1) {
    const result = await api.listGuests(
      { search, perPage: 50, ...(cursor ? { cursor } : { page }) },
      { fresh: true },
    );
    const guest = result.items.find((g) => (g.email ?? '').trim().toLowerCase() === email);
    if (guest) return guest;
    if (result.items.length === 0) return undefined;
    if (result.page.nextCursor) cursor = result.page.nextCursor;
    else if (!cursor && result.page.current < result.page.last) page = result.page.current + 1;
    else return undefined;
  }
  return undefined;
}

/**
 * The lodging guest for the booking's e-mail address: the existing one, else a new one. Upstreams
 * differ in what `search` matches (e-mail on some, names only on others), so after "the email has
 * already been taken" the guest is looked up by the typed names too, matching the e-mail exactly.
 * A guest record under other names is never used: the booking is refused (docs/api-assumptions.md).
 */
export async function findOrCreateGuest(
  api: LodgingClient,
  input: BookingRequest,
): Promise<string> {
  const email = input.email.trim().toLowerCase();
  const first = input.firstName.trim();
  const last = input.lastName.trim();
  const use = (guest: Guest): string => {
    if (!sameName(guest.first_name, first) || !sameName(guest.last_name, last)) throw namesDiffer();
    return String(guest.id);
  };
  const existing = await findByEmail(api, email, email);
  if (existing) return use(existing);
  try {
    const created = await api.createGuest(guestInput(input, email));
    return String(created.id);
  } catch (error) {
    const failure = classify(error);
    const taken =
      failure.kind === 'invalid' &&
      (failure.fields['email'] ?? []).some((m) => /taken|exists|already|unique/i.test(m));
    if (!taken) throw error;
    // The e-mail exists (on an upstream whose search missed it, or created just now).
    for (const search of [email, `${first} ${last}`, last]) {
      const found = await findByEmail(api, search, email);
      if (found) return use(found);
    }
    // Registered, but not under the names typed (or not findable): never book blind.
    throw namesDiffer();
  }
}
