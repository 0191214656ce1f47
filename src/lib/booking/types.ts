import type { FieldErrors } from '../failures/fields.ts';
import type { Capacity } from './rules.ts';

/** Wire format between the site's booking endpoints and the widget (never upstream shapes). */

export interface RoomTypeSummary {
  id: string;
  name: string;
  description: string;
  maxAdults: number;
  maxChildren: number;
  maxOccupancy: number;
}

export interface PropertySummary {
  id: string;
  name: string;
  /** ISO 4217 code prices are charged in. */
  currency: string;
  city: string;
  /** Street address, when the lodging API gives one. */
  address?: string;
  /** Local check-in and check-out times ("15:00"), when the lodging API gives them. */
  checkInTime?: string;
  checkOutTime?: string;
  roomTypes: RoomTypeSummary[];
  capacity: Capacity;
}

export interface RoomOffer {
  roomTypeId: string;
  name: string;
  description: string;
  maxOccupancy: number;
  /** Free and big enough for this party. */
  available: boolean;
  availableRooms: number;
  pricePerNight: number;
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
  totalPrice: number;
  currency: string;
  status: string;
}

export type ErrorCode =
  'validation' | 'busy' | 'unavailable' | 'not_found' | 'forbidden' | 'conflict' | 'bad_request';

export interface ApiError {
  code: ErrorCode;
  /** Safe to show: never an upstream message or a stack. */
  message: string;
  fields?: FieldErrors;
  /** Seconds until a retry can succeed (`busy`, `unavailable`). */
  retryAfter?: number;
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };
