/** In-memory records of the lodging service; every record belongs to one account. */
export type LodgingUser = {
  id: string;
  accountId: string;
  name: string;
  email: string;
  password: string;
};

export type RoomType = {
  id: string;
  name: string;
  description: string;
  maxAdults: number;
  maxChildren: number;
  maxOccupancy: number;
  basePrice: string;
  /** Friday and Saturday nights; null = the base price every night. */
  weekendPrice: string | null;
  totalRooms: number;
};

export type Property = {
  id: string;
  accountId: string;
  name: string;
  description: string;
  address: string;
  postcode: string;
  city: string;
  country: string;
  timezone: string;
  currency: string;
  checkInTime: string;
  checkOutTime: string;
  roomTypes: RoomType[];
};

export type Guest = {
  id: string;
  accountId: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  nationality: string | null;
  createdAt: string;
  updatedAt: string;
};

export const BOOKING_STATUSES = [
  'pending',
  'confirmed',
  'checked_in',
  'checked_out',
  'cancelled',
  'no_show',
] as const;
/** The alt dialect's statuses (docs/api-assumptions.md, "Dialects"); `confirmed` is the contract's. */
export const ALT_BOOKING_STATUSES = [
  'requested',
  'tentative',
  'confirmed',
  'booked',
  'checked_in',
  'checked_out',
  'canceled',
  'no_show',
] as const;
export type BookingStatus =
  (typeof BOOKING_STATUSES)[number] | (typeof ALT_BOOKING_STATUSES)[number];

export type Booking = {
  id: string;
  accountId: string;
  reference: string;
  propertyId: string;
  roomTypeId: string;
  guestId: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  children: number;
  notes: string | null;
  status: BookingStatus;
  totalPrice: string;
  currency: string;
  createdAt: string;
  updatedAt: string;
};

/** Abilities: `read` allows GET only, `*` allows everything. */
export type LodgingToken = {
  token: string;
  accountId: string;
  userId: string;
  abilities: string[];
};

export type LodgingData = {
  users: LodgingUser[];
  properties: Property[];
  guests: Guest[];
  bookings: Booking[];
  tokens: Map<string, LodgingToken>;
};
