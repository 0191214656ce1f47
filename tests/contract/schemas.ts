import { z } from 'zod';

/** Response shapes from docs/api-assumptions.md; strict where the doc names every field. */
export const ErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

const iso = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const url = z.url();

export const MetaSchema = z.object({
  current_page: z.number().int(),
  last_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
  path: url,
});

export const LinksSchema = z.object({
  first: url,
  last: url,
  prev: url.nullable(),
  next: url.nullable(),
});

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: MetaSchema, links: LinksSchema });

export const one = <T extends z.ZodType>(item: T) => z.object({ data: item });

export const ShortMetaSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  last_page: z.number().int(),
  per_page: z.number().int(),
});

const TagRef = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });

export const PostItemSchema = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  status: z.enum(['draft', 'published']),
  published_at: iso.nullable(),
  updated_at: iso,
  is_featured: z.boolean(),
  cover_image_url: url.nullable(),
  cover_image_width: z.number().int().nullable(),
  cover_image_height: z.number().int().nullable(),
  author: z.object({ id: z.number().int(), name: z.string() }),
  category: z.object({ id: z.number().int(), name: z.string(), slug: z.string() }).nullable(),
  tags: z.array(TagRef),
});

export const PostSchema = PostItemSchema.extend({ content: z.string() });

export const CategorySchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  posts_count: z.number().int(),
});

export const TagSchema = TagRef.extend({ url });

export const PlanSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  price: z.string().regex(/^\d+\.\d{2}$/),
  currency: z.string().length(3),
  interval: z.enum(['month', 'year']),
  features: z.array(z.string()),
  subscribe_url: url,
});

export const EditionSchema = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  page_count: z.number().int(),
  is_free: z.boolean(),
  requires_subscription: z.boolean(),
  reader_url: url,
  cover_image_url: url,
  published_at: ymd,
  pages: z
    .array(
      z.strictObject({
        page_number: z.number().int(),
        image_url: url,
        width: z.number().int(),
        height: z.number().int(),
      }),
    )
    .optional(),
});

export const StreamSchema = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  description: z.string(),
  status: z.enum(['live', 'scheduled', 'ended']),
  is_live: z.boolean(),
  provider: z.string(),
  watch_url: url,
  stream_url: url,
  embed_code: z.string(),
  thumbnail_url: url,
  scheduled_at: iso,
  started_at: iso.nullable(),
  ended_at: iso.nullable(),
});

export type CommentOut = {
  id: number;
  content: string;
  author_name: string;
  created_at: string;
  status: string;
  parent_id: number | null;
  replies: CommentOut[];
};

export const CommentSchema: z.ZodType<CommentOut> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    content: z.string(),
    author_name: z.string(),
    created_at: iso,
    status: z.enum(['pending', 'approved']),
    parent_id: z.number().int().nullable(),
    replies: z.array(CommentSchema),
  }),
);

export const MeSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  email: z.email(),
  roles: z.array(z.string()),
  has_active_subscription: z.boolean(),
});

const uuid = z.uuid();

export const RoomTypeSchema = z.strictObject({
  id: uuid,
  name: z.string(),
  description: z.string(),
  max_adults: z.number().int(),
  max_children: z.number().int(),
  max_occupancy: z.number().int(),
  base_price: z.string(),
  currency: z.string(),
  total_rooms: z.number().int(),
});

export const PropertySchema = z.strictObject({
  id: uuid,
  name: z.string(),
  description: z.string(),
  address: z.string(),
  city: z.string(),
  country: z.string(),
  timezone: z.string(),
  currency: z.string(),
  check_in_time: z.string(),
  check_out_time: z.string(),
  room_types: z.array(RoomTypeSchema),
});

export const AvailabilitySchema = z.strictObject({
  property_id: uuid,
  check_in: ymd,
  check_out: ymd,
  nights: z.number().int(),
  guests: z.number().int(),
  currency: z.string(),
  room_types: z.array(
    z.strictObject({
      room_type_id: uuid,
      name: z.string(),
      max_occupancy: z.number().int(),
      available_rooms: z.number().int(),
      available: z.boolean(),
      price_per_night: z.string(),
      total_price: z.string(),
      currency: z.string(),
    }),
  ),
});

export const BookingSchema = z.strictObject({
  id: uuid,
  reference: z.string().regex(/^BK-[A-Z0-9]{6}$/),
  property_id: uuid,
  room_type_id: uuid,
  guest_id: uuid,
  check_in: ymd,
  check_out: ymd,
  nights: z.number().int(),
  adults: z.number().int(),
  children: z.number().int(),
  notes: z.string().nullable(),
  status: z.enum(['pending', 'confirmed', 'checked_in', 'checked_out', 'cancelled', 'no_show']),
  total_price: z.string(),
  currency: z.string(),
  created_at: iso,
  updated_at: iso,
});

export const GuestSchema = z.strictObject({
  id: uuid,
  first_name: z.string(),
  last_name: z.string(),
  email: z.email(),
  phone: z.string().nullable(),
  nationality: z.string().nullable(),
  created_at: iso,
  updated_at: iso,
});
