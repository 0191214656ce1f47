import { z } from 'zod';

/** Response shapes of the alt dialect (docs/api-assumptions.md, "Dialects"); strict throughout. */

/** Laravel's default timestamp serialisation. */
export const laravelTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000000Z$/);
/** A `date` cast: midnight as a timestamp. */
export const laravelDate = z.string().regex(/^\d{4}-\d{2}-\d{2}T00:00:00\.000000Z$/);
const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const uuid = z.uuid();
const url = z.url();
const money = z.number();

const Capacity = z.strictObject({
  adults: z.number().int(),
  children: z.number().int(),
  total: z.number().int(),
});

export const AltRoomTypeSchema = z.strictObject({
  id: uuid,
  name: z.string(),
  description: z.string(),
  capacity: Capacity,
  rate: money,
  weekend_rate: money.nullable(),
  units: z.number().int(),
});

export const AltPropertySchema = z.strictObject({
  id: uuid,
  name: z.string(),
  description: z.string(),
  address: z.strictObject({
    street: z.string(),
    city: z.string(),
    postcode: z.string(),
    country: z.string().length(2),
  }),
  timezone: z.string(),
  currency_code: z.string().length(3),
  check_in_from: z.string().regex(/^\d{2}:\d{2}:\d{2}$/),
  check_out_until: z.string().regex(/^\d{2}:\d{2}:\d{2}$/),
  room_types: z.array(AltRoomTypeSchema),
});

const NightlyRate = z.strictObject({ date: ymd, rate: money });

export const AltAvailabilitySchema = z.strictObject({
  property_id: uuid,
  period: z.strictObject({ check_in: ymd, check_out: ymd, nights: z.number().int() }),
  guests: z.number().int(),
  currency_code: z.string().length(3),
  rooms: z.array(
    z.strictObject({
      room_type_id: uuid,
      name: z.string(),
      capacity: Capacity,
      // A SQL aggregate: a numeric string.
      units_available: z.string().regex(/^\d+$/),
      nightly_rates: z.array(NightlyRate),
      total: money,
    }),
  ),
});

export const ALT_STATUSES = [
  'requested',
  'tentative',
  'confirmed',
  'booked',
  'checked_in',
  'checked_out',
  'canceled',
  'no_show',
] as const;

export const AltBookingSchema = z.strictObject({
  id: uuid,
  confirmation_code: z.string().regex(/^BK-[A-Z0-9]{6}$/),
  property_id: uuid,
  room_type_id: uuid,
  guest_id: uuid,
  check_in: laravelDate,
  check_out: laravelDate,
  adults: z.number().int(),
  children: z.number().int(),
  notes: z.string().nullable(),
  status: z.enum(ALT_STATUSES),
  total_amount: money,
  currency_code: z.string().length(3),
  nightly_rates: z.array(NightlyRate),
  guest: z
    .strictObject({ id: uuid, first_name: z.string(), last_name: z.string(), email: z.email() })
    .nullable(),
  created_at: laravelTime,
  updated_at: laravelTime,
});

export const AltGuestSchema = z.strictObject({
  id: uuid,
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  email: z.email(),
  phone: z.string(),
  nationality: z.string().nullable(),
  created_at: laravelTime,
  updated_at: laravelTime,
});

/** `->paginate()` returned straight from a controller. */
export const rawPage = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    current_page: z.number().int(),
    data: z.array(item),
    first_page_url: url,
    from: z.number().int().nullable(),
    last_page: z.number().int(),
    last_page_url: url,
    links: z.array(z.strictObject({ url: url.nullable(), label: z.string(), active: z.boolean() })),
    next_page_url: url.nullable(),
    path: url,
    per_page: z.number().int(),
    prev_page_url: url.nullable(),
    to: z.number().int().nullable(),
    total: z.number().int(),
  });

/** `->cursorPaginate()` returned straight from a controller. */
export const cursorPage = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    data: z.array(item),
    path: url,
    per_page: z.number().int(),
    next_cursor: z.string().nullable(),
    next_page_url: url.nullable(),
    prev_cursor: z.string().nullable(),
    prev_page_url: url.nullable(),
  });

// Publishing.

export const AltPostItemSchema = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  content: z.string(),
  status: z.enum(['draft', 'published']),
  published_at: laravelTime.nullable(),
  updated_at: laravelTime,
  featured: z.union([z.literal(0), z.literal(1)]),
  featured_image: z
    .strictObject({ url, alt: z.string(), width: z.number().int(), height: z.number().int() })
    .nullable(),
  author: z.object({ id: z.number().int(), name: z.string() }),
  category: z.object({ id: z.number().int(), name: z.string(), slug: z.string() }).nullable(),
  tags: z.array(z.string()),
});

export const AltPlanSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  price: z.string().regex(/^\d+\.\d{2}$/),
  currency: z.string().length(3),
  interval: z.enum(['monthly', 'yearly']),
  features: z.array(z.strictObject({ name: z.string(), included: z.boolean() })),
  subscribe_url: url,
});

export const AltEditionSchema = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  page_count: z.number().int(),
  is_free: z.boolean(),
  requires_subscription: z.boolean(),
  reader_url: url,
  cover_image: url,
  issue_date: ymd,
  pages: z.array(z.strictObject({ page_number: z.number().int(), image_url: url })).optional(),
});

export const AltStreamSchema = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  description: z.string(),
  status: z.enum(['live', 'scheduled', 'ended']),
  is_live: z.boolean(),
  provider: z.enum(['youtube', 'vimeo']),
  watch_url: url,
  stream_url: z
    .string()
    .regex(/^https:\/\/(www\.youtube\.com\/embed\/[\w-]{11}|player\.vimeo\.com\/video\/\d+)$/),
  embed_code: z.string(),
  thumbnail: url,
  starts_at: laravelTime,
  started_at: laravelTime.nullable(),
  ended_at: laravelTime.nullable(),
});

export const AltMeSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  email: z.email(),
  roles: z.array(z.string()),
  subscription: z
    .strictObject({ status: z.literal('active'), plan: z.string(), renews_at: z.null() })
    .nullable(),
});
