import type { z } from 'zod';
import { budgetKeys } from '../upstream/budget.ts';
import type { HttpMethod, QueryValue } from '../upstream/http.ts';
import { pageQuery as pagingQuery, toPaged } from '../upstream/parse.ts';
import type { PageParams, Paged } from '../upstream/parse.ts';
import { cachedRead, defaultUpstream, fetchParsed } from '../upstream/runtime.ts';
import type { CachedReadOptions, Upstream } from '../upstream/runtime.ts';
import { TTL } from '../upstream/ttl.ts';
import type { CachePolicy } from '../upstream/ttl.ts';
import { lodgingAuth, lodgingLogin } from './auth.ts';
import type { LodgingCredentials } from './auth.ts';
import {
  bookingListSchema,
  cancelResultSchema,
  guestListSchema,
  meSchema,
  messageSchema,
  propertyListSchema,
  singleAvailabilitySchema,
  singleBookingSchema,
  singleGuestSchema,
  singlePropertySchema,
} from './schema.ts';
import type {
  Availability,
  AvailabilityQuery,
  Booking,
  BookingFilters,
  BookingInput,
  BookingUpdate,
  Guest,
  GuestInput,
  LodgingLogin,
  LodgingUser,
  Property,
} from './schema.ts';

export interface LodgingClientOptions {
  /** Which lodging account this is (the site's key for it): part of every cache and budget key. */
  accountKey: string;
  /** The `/api/v1` base address. */
  baseUrl: string;
  /** An API token (read-only or full), or… */
  token?: string | undefined;
  /** …e-mail and password: logged in on first use and again after a 401. */
  email?: string | undefined;
  password?: string | undefined;
  upstream?: Upstream | undefined;
  timeoutMs?: number | undefined;
}

export type { PageParams };

export type ReadOptions = CachedReadOptions;

const MAX_PER_PAGE = 100;

function credentialsOf(options: LodgingClientOptions): LodgingCredentials {
  if (options.token !== undefined) return { token: options.token };
  if (options.email !== undefined && options.password !== undefined) {
    return { email: options.email, password: options.password };
  }
  throw new TypeError('lodgingClient needs either `token` or `email` and `password`.');
}

/**
 * A lodging client bound to one account. Every read is private to the account and cached per
 * token (hash in the key). Writes are never cached and invalidate nothing: read again with
 * `{ fresh: true }` where the change must show at once.
 */
export function lodgingClient(options: LodgingClientOptions) {
  const up = options.upstream ?? defaultUpstream();
  const { accountKey, baseUrl } = options;
  const credentials = credentialsOf(options);
  // Cache identity: the API token, or the login e-mail (stable across re-logins); hashed in the key.
  const identity = credentials.token ?? `login:${credentials.email}`;
  const auth = lodgingAuth({
    accountKey,
    baseUrl,
    credentials,
    upstream: up,
    timeoutMs: options.timeoutMs,
  });
  const enc = encodeURIComponent;

  const call = <S extends z.ZodType>(
    operation: string,
    schema: S,
    request: {
      method?: HttpMethod;
      path: string;
      query?: Record<string, QueryValue> | undefined;
      body?: unknown;
    },
  ): Promise<z.output<S>> =>
    auth.withToken((token) =>
      fetchParsed(
        up,
        {
          service: 'lodging',
          operation,
          tenant: accountKey,
          baseUrl,
          path: request.path,
          method: request.method ?? 'GET',
          query: request.query,
          body: request.body,
          token,
          budgetKey: budgetKeys.lodging(baseUrl, accountKey, token),
          timeoutMs: options.timeoutMs,
        },
        schema,
      ),
    );

  const read = <T>(
    operation: string,
    params: Record<string, unknown>,
    policy: CachePolicy,
    load: () => Promise<T>,
    readOptions: ReadOptions = {},
  ): Promise<T> =>
    cachedRead(
      up,
      { service: 'lodging', tenant: accountKey, operation, params, token: identity },
      policy,
      load,
      readOptions,
    );

  const pageQuery = (params: PageParams) => pagingQuery(params, MAX_PER_PAGE);

  return {
    accountKey,

    // Authentication.

    /** `POST /auth/login` with any credentials (does not change this client's own). */
    login(email: string, password: string): Promise<LodgingLogin> {
      return lodgingLogin(up, options, email, password);
    },
    me(readOptions?: ReadOptions): Promise<LodgingUser> {
      return read(
        'auth.me',
        {},
        TTL.lodgingMe,
        () => call('auth.me', meSchema, { path: '/auth/me' }),
        readOptions,
      );
    },
    /** Ends the current token's session and forgets a login token. */
    async logout(): Promise<void> {
      await call('auth.logout', messageSchema, { method: 'POST', path: '/auth/logout' });
      auth.forget();
    },

    // Properties.

    listProperties(params: PageParams = {}, readOptions?: ReadOptions): Promise<Paged<Property>> {
      const query = pageQuery(params);
      return read(
        'properties.list',
        query,
        TTL.propertyList,
        async () =>
          toPaged(
            await call('properties.list', propertyListSchema, { path: '/properties', query }),
            params,
          ),
        readOptions,
      );
    },
    getProperty(id: string, readOptions?: ReadOptions): Promise<Property> {
      return read(
        'properties.get',
        { id },
        TTL.property,
        () => call('properties.get', singlePropertySchema, { path: `/properties/${enc(id)}` }),
        readOptions,
      );
    },
    /** Invalid dates or guests → `ValidationError`. */
    getAvailability(
      propertyId: string,
      query: AvailabilityQuery,
      readOptions?: ReadOptions,
    ): Promise<Availability> {
      const q: Record<string, QueryValue> = { ...query };
      return read(
        'properties.availability',
        { propertyId, ...q },
        TTL.availability,
        () =>
          call('properties.availability', singleAvailabilitySchema, {
            path: `/properties/${enc(propertyId)}/availability`,
            query: q,
          }),
        readOptions,
      );
    },

    // Bookings.

    listBookings(filters: BookingFilters = {}, readOptions?: ReadOptions): Promise<Paged<Booking>> {
      const { page, perPage, ...rest } = filters;
      const query: Record<string, QueryValue> = { ...rest, ...pageQuery({ page, perPage }) };
      return read(
        'bookings.list',
        query,
        TTL.bookingList,
        async () =>
          toPaged(await call('bookings.list', bookingListSchema, { path: '/bookings', query }), {
            page,
            perPage,
          }),
        readOptions,
      );
    },
    createBooking(input: BookingInput): Promise<Booking> {
      return call('bookings.create', singleBookingSchema, {
        method: 'POST',
        path: '/bookings',
        body: input,
      });
    },
    updateBooking(id: string, input: BookingUpdate): Promise<Booking> {
      return call('bookings.update', singleBookingSchema, {
        method: 'PATCH',
        path: `/bookings/${enc(id)}`,
        body: input,
      });
    },
    /** Soft cancel: the booking with `status: "cancelled"` (or `null` if the upstream sends none). */
    async cancelBooking(id: string): Promise<Booking | null> {
      const result = await call('bookings.cancel', cancelResultSchema, {
        method: 'DELETE',
        path: `/bookings/${enc(id)}`,
      });
      return result.data;
    },

    // Guests.

    listGuests(
      params: PageParams & { search?: string | undefined } = {},
      readOptions?: ReadOptions,
    ): Promise<Paged<Guest>> {
      const query: Record<string, QueryValue> = { search: params.search, ...pageQuery(params) };
      return read(
        'guests.list',
        query,
        TTL.guestList,
        async () =>
          toPaged(await call('guests.list', guestListSchema, { path: '/guests', query }), params),
        readOptions,
      );
    },
    createGuest(input: GuestInput): Promise<Guest> {
      return call('guests.create', singleGuestSchema, {
        method: 'POST',
        path: '/guests',
        body: input,
      });
    },
    getGuest(id: string, readOptions?: ReadOptions): Promise<Guest> {
      return read(
        'guests.get',
        { id },
        TTL.guest,
        () => call('guests.get', singleGuestSchema, { path: `/guests/${enc(id)}` }),
        readOptions,
      );
    },
    /** Full replacement, validated like create. */
    updateGuest(id: string, input: GuestInput): Promise<Guest> {
      return call('guests.update', singleGuestSchema, {
        method: 'PUT',
        path: `/guests/${enc(id)}`,
        body: input,
      });
    },
    async deleteGuest(id: string): Promise<void> {
      await call('guests.delete', messageSchema, { method: 'DELETE', path: `/guests/${enc(id)}` });
    },
  };
}

export type LodgingClient = ReturnType<typeof lodgingClient>;
