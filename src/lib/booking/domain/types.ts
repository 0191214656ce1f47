import type { FieldErrors } from '../../failures/fields.ts';
import type { Tenant } from '../../tenants/schema.ts';
import type { Capacity } from './rules.ts';
import type { StatusKind } from './status.ts';

/** Wire format between the site's booking endpoints and the widget (never upstream shapes). */

/** A room type's limits apart (`Capacity`): a room may sleep 3 but only 2 of them adults. */
export interface RoomTypeSummary extends Capacity {
  id: string;
  name: string;
  description: string;
}

export interface PropertySummary {
  id: string;
  name: string;
  /** ISO 4217 code prices are charged in (never guessed: without it the property is not bookable online). */
  currency: string;
  /** Null when the lodging API does not say. */
  city: string | null;
  /** Street address, when the lodging API gives one. */
  address?: string;
  /** Local check-in and check-out times ("15:00"), when the lodging API gives them. */
  checkInTime?: string;
  checkOutTime?: string;
  /** The property's IANA time zone, when the lodging API gives one this runtime knows. */
  timeZone?: string;
  roomTypes: RoomTypeSummary[];
  capacity: Capacity;
}

export interface RoomOffer extends Capacity {
  roomTypeId: string;
  name: string;
  description: string;
  /** Free and big enough for this party. */
  available: boolean;
  availableRooms: number;
  /** The one rate every night costs; null when nights differ or only a total is known. */
  pricePerNight: number | null;
  /** One price per night, in order, when the API lists them (they may differ: weekend rates). */
  nightly: number[] | null;
  /** `totalPrice / nights`: show as "average per night" when `nightly` is null or not all equal. */
  averageNightly: number;
  /** Always the API's total for the stay. */
  totalPrice: number;
  currency: string;
}

export interface AvailabilityResult {
  propertyId: string;
  checkIn: string;
  checkOut: string;
  nights: number;
  adults: number;
  children: number;
  currency: string;
  rooms: RoomOffer[];
}

export interface Confirmation {
  reference: string;
  propertyId: string;
  propertyName: string;
  roomTypeId: string;
  roomName: string;
  checkIn: string;
  checkOut: string;
  nights: number;
  adults: number;
  children: number;
  /** The API's total; null when its booking record carries none (then show no total). */
  totalPrice: number | null;
  /** One price per night when the API lists them. */
  nightly: number[] | null;
  /** `totalPrice / nights`, null without a total. */
  averageNightly: number | null;
  currency: string;
  /** The lodging API's own word, e.g. `tentative`. */
  status: string;
  /** What it means to the guest: `received` ("request received"), `confirmed`, `cancelled`, `other` (neutral). */
  statusKind: StatusKind;
}

export type ErrorCode =
  | 'validation'
  | 'busy'
  | 'unavailable'
  /** The lodging API's answers cannot be used: book by contacting the tenant (`contact`), no retry. */
  | 'not_online'
  | 'not_found'
  | 'forbidden'
  | 'conflict'
  /** The same stay was booked moments ago (another tab): book it again only with `anotherRoom`. */
  | 'same_stay'
  | 'bad_request'
  /** The endpoint does not take this method (405; `Allow` names those it does). */
  | 'method_not_allowed'
  /** The request body was above the site's limit (413): nothing was read or sent. */
  | 'too_large'
  /** The address was too long for any page (414). */
  | 'too_long';

/** How to book instead when booking is not available online (from the tenant's `lodging.contact`). */
export type BookingContact = NonNullable<NonNullable<Tenant['lodging']>['contact']>;

export interface ApiError {
  code: ErrorCode;
  /** Safe to show: never an upstream message or a stack. */
  message: string;
  fields?: FieldErrors;
  /** Seconds until a retry can succeed (`busy`, `unavailable`). */
  retryAfter?: number;
  /** `not_online`: whom to contact instead. */
  contact?: BookingContact;
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/** A booked stay as its manage page shows it: the confirmation's facts, asked fresh. */
export type ManagedStay = Confirmation & {
  property: PropertySummary;
  /** The check-in day has begun where the property is: no longer cancelled online. */
  begun?: boolean;
};
