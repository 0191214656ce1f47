import { declaredCore } from '../upstream/client-core.ts';
import type { CoreOptions, ReadOptions } from '../upstream/client-core.ts';
import { paged } from '../upstream/parse.ts';
import type { PageParams, Paged } from '../upstream/parse.ts';
import { LODGING_OPERATIONS } from './operations.ts';
import { lodgingAccountCore, lodgingAuth } from './auth.ts';
import type { LodgingCredentials } from './auth.ts';
import type {
  Availability,
  AvailabilityQuery,
  Booking,
  BookingFilters,
  BookingInput,
  Guest,
  GuestInput,
  Property,
} from './schema.ts';

export interface LodgingClientOptions extends CoreOptions {
  /** Which lodging account this is (the site's key for it): part of every cache and budget key. */
  accountKey: string;
  /** An API token (read-only or full), or… */
  token?: string | undefined;
  /** …e-mail and password: logged in on first use and again after a 401. */
  email?: string | undefined;
  password?: string | undefined;
}

/**
 * The core a lodging client (and the test harness's extra operations) calls through. Every call
 * carries the account's token (logging in again after a 401 with e-mail and password) and every
 * read is private to the account, cached per token.
 */
export function lodgingCore(options: LodgingClientOptions) {
  const { token, email, password } = options;
  let credentials: LodgingCredentials;
  if (token !== undefined) credentials = { token };
  else if (email !== undefined && password !== undefined) credentials = { email, password };
  else throw new TypeError('lodgingClient needs either `token` or `email` and `password`.');
  // Cache identity: the API token, or the login e-mail (stable across re-logins); hashed in the key.
  const identity = credentials.token ?? `login:${credentials.email}`;
  const auth = lodgingAuth({ ...options, credentials });
  // `forgetLogin`: after a logout.
  return {
    ...lodgingAccountCore(options, (send) => auth.withToken(send), identity),
    forgetLogin: auth.forget,
  };
}

/** A lodging client bound to one account, with the operations the booking feature uses. */
export function lodgingClient(options: LodgingClientOptions) {
  const { read, call } = declaredCore(lodgingCore(options), LODGING_OPERATIONS);
  return {
    accountKey: options.accountKey,
    getProperty: (id: string, readOptions?: ReadOptions): Promise<Property> =>
      read('properties.get', { params: { id } }, readOptions),
    /** Invalid dates or guests → `ValidationError`. */
    getAvailability: (
      propertyId: string,
      query: AvailabilityQuery,
      readOptions?: ReadOptions,
    ): Promise<Availability> =>
      read('properties.availability', { params: { propertyId }, query: { ...query } }, readOptions),
    listBookings(filters: BookingFilters = {}, readOptions?: ReadOptions): Promise<Paged<Booking>> {
      const { page, perPage, ...rest } = filters;
      const { query, map } = paged<Booking>({ page, perPage });
      return read('bookings.list', { query: { ...rest, ...query }, map }, readOptions);
    },
    createBooking: (input: BookingInput): Promise<Booking> =>
      call('bookings.create', { body: input }),
    /** Soft cancel: the booking with `status: "cancelled"` (or `null` if the upstream sends none). */
    cancelBooking: async (id: string): Promise<Booking | null> =>
      (await call('bookings.cancel', { params: { id } })).data,
    listGuests: (
      params: PageParams & {
        search?: string | undefined;
        /** The previous page's `page.nextCursor` (cursor-paginated upstreams). */
        cursor?: string | undefined;
      } = {},
      readOptions?: ReadOptions,
    ): Promise<Paged<Guest>> => {
      const { query, map } = paged<Guest>(params);
      const { search, cursor } = params;
      return read('guests.list', { query: { search, cursor, ...query }, map }, readOptions);
    },
    /** One guest (the cancellation e-mail's address). */
    getGuest: (id: string, readOptions?: ReadOptions): Promise<Guest> =>
      read('guests.get', { params: { id } }, readOptions),
    createGuest: (input: GuestInput): Promise<Guest> => call('guests.create', { body: input }),
  };
}

export type LodgingClient = ReturnType<typeof lodgingClient>;
