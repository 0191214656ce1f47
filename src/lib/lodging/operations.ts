import type { Declared } from '../upstream/client-core.ts';
import { LOGIN_OPERATION } from '../upstream/parse.ts';
import { TTL } from '../upstream/ttl.ts';
import * as s from './schema.ts';

/**
 * What the booking feature reads of each lodging operation, in its own field names (see
 * `src/lib/publishing/operations.ts`). Paths are the contract's. Guests come before bookings: the
 * doctor reads in this order, and a booking's guest joins a guest it read before.
 */
export const LODGING_OPERATIONS = {
  'auth.login': LOGIN_OPERATION,
  'properties.list': {
    kind: 'list',
    read: true,
    path: '/properties',
    needs: ['id'],
    schema: s.propertyListSchema,
    ttl: TTL.propertyList,
  },
  'properties.get': {
    read: true,
    path: '/properties/{id}',
    needs: [
      'id',
      'name',
      'currency',
      'city',
      'room_types',
      'room_types[].id',
      'room_types[].name',
      'room_types[].max_occupancy',
    ],
    schema: s.singlePropertySchema,
    ttl: TTL.property,
  },
  'properties.availability': {
    read: true,
    path: '/properties/{propertyId}/availability',
    needs: [
      'room_types',
      'room_types[].room_type_id',
      'room_types[].available_rooms',
      'room_types[].total_price',
    ],
    schema: s.singleAvailabilitySchema,
    ttl: TTL.availability,
  },
  'guests.list': {
    kind: 'list',
    read: true,
    path: '/guests',
    needs: ['id', 'first_name', 'last_name', 'email'],
    schema: s.guestListSchema,
    ttl: TTL.guestList,
  },
  'guests.create': {
    method: 'POST',
    path: '/guests',
    needs: ['id'],
    schema: s.singleGuestSchema,
  },
  'guests.get': {
    path: '/guests/{id}',
    needs: [],
    schema: s.singleGuestSchema,
    ttl: TTL.guest,
  },
  'bookings.list': {
    kind: 'list',
    read: true,
    path: '/bookings',
    needs: [
      'id',
      'reference',
      'status',
      'check_in',
      'check_out',
      'guest_id',
      // The manage page finds a guest's booking in the list by reference and property.
      'property_id',
      'room_type_id',
      'total_price',
    ],
    schema: s.bookingListSchema,
    ttl: TTL.bookingList,
  },
  'bookings.create': {
    method: 'POST',
    path: '/bookings',
    needs: ['id', 'status', 'reference', 'check_in', 'check_out', 'total_price'],
    schema: s.singleBookingSchema,
  },
  'bookings.cancel': {
    method: 'DELETE',
    path: '/bookings/{id}',
    needs: [],
    schema: s.cancelResultSchema,
  },
} as const satisfies Record<string, Declared>;
