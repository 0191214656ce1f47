import type { FieldErrors } from '../../failures/fields.ts';
import type { Tenant } from '../../tenants/schema.ts';
import type { Confirmation, PropertySummary } from '../service/lodging-shapes.ts';

/**
 * Wire format between the site's booking endpoints and the widget (never upstream shapes): the
 * places, offers and confirmations are what service/lodging-shapes.ts makes of the lodging API's.
 */
export type {
  AvailabilityResult,
  Confirmation,
  PropertySummary,
  RoomOffer,
  RoomTypeSummary,
} from '../service/lodging-shapes.ts';

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
