import { isRecord } from '../content/records.ts';
import { z } from 'zod';
import {
  bool,
  decimal,
  enveloped,
  id,
  int,
  itemsOf,
  listOf,
  loginSchema,
  pageMetaSchema,
  webUrl,
  webUrlField,
} from '../upstream/parse.ts';

/**
 * Publishing API resources as this site reads them. Field names stay as the upstream sends them
 * (snake_case); unknown fields pass through (`looseObject`); extras the contract does not promise
 * are optional. Single resources accept a `data` envelope or none.
 */

const nullableString = z.string().nullish();
/** A flag or count from a nullable column: `null` reads as not sent. */
const nullAsAbsent = <S extends z.ZodType>(schema: S) =>
  schema
    .nullable()
    .transform((value) => value ?? undefined)
    .optional();
const flag = bool.nullish().transform((value) => value ?? false);
/** Text or a list the API may send as null or not at all: empty then. */
const orEmpty = <S extends z.ZodType, E>(schema: S, empty: () => E) =>
  schema.nullish().transform((value) => value ?? empty());
const textOrEmpty = orEmpty(z.string(), () => '');
const listOrEmpty = <S extends z.ZodType>(item: S) => orEmpty(itemsOf(item), () => []);

export const userSchema = z.looseObject({
  id,
  name: z.string(),
  email: z.string().optional(),
  roles: z.array(z.string()).default([]),
  /** Paid subscription flag (name assumed, see docs/api-assumptions.md). */
  has_active_subscription: nullAsAbsent(bool),
  /** The other reading of that flag: `{ status: "active", plan, renews_at }` or null. */
  subscription: z
    .looseObject({ status: z.string().optional() })
    .nullish()
    .catch(() => undefined),
});
export type User = z.output<typeof userSchema>;

export type AuthResult = z.output<typeof loginSchema>;

export const authorRefSchema = z.looseObject({ id: id.optional(), name: z.string() });
export const categoryRefSchema = z.looseObject({
  id: id.optional(),
  name: z.string(),
  slug: z.string(),
});
/** A tag's slug from its name, for APIs that list a post's tags as plain names. */
export function slugFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const tagRefSchema = z.preprocess(
  // A value's form, not a name (a profile maps names, it cannot make a slug): tags as names only.
  (value) => (typeof value === 'string' ? { name: value, slug: slugFromName(value) } : value),
  z.looseObject({
    id: id.optional(),
    name: z.string(),
    slug: z.string().optional(),
  }),
);

const postFields = {
  id,
  title: z.string(),
  slug: z.string(),
  excerpt: textOrEmpty,
  status: z.string().optional(),
  published_at: nullableString,
  updated_at: nullableString,
  author: authorRefSchema.nullish(),
  category: categoryRefSchema.nullish(),
  tags: listOrEmpty(tagRefSchema),
  is_featured: nullAsAbsent(bool),
  cover_image_url: webUrlField,
  cover_image_width: int.nullish(),
  cover_image_height: int.nullish(),
  /** The contract has none; a profile may map one (`profiles/publishing-alt.json`). */
  cover_image_alt: z.string().optional(),
  content: z.string().optional(),
};

/** A post as listed: every field but `content` (which lists may still carry; the client drops it). */
export const postSummarySchema = z.looseObject(postFields);
export type PostSummary = z.output<typeof postSummarySchema>;

/** One post with `content`: sanitized HTML by the time it leaves the client. */
export const postSchema = z.looseObject({ ...postFields, content: z.string() });
export type Post = z.output<typeof postSchema>;

export const categorySchema = z.looseObject({
  id,
  name: z.string(),
  slug: z.string(),
  posts_count: int.optional(),
});
export type Category = z.output<typeof categorySchema>;

export const tagSchema = z.looseObject({
  id,
  name: z.string(),
  slug: z.string(),
  url: z.string().optional(),
});
export type Tag = z.output<typeof tagSchema>;

/** Plan features: strings in the mock; an object item keeps its most readable text. */
const featureSchema = z.union([
  z.string(),
  z.looseObject({}).transform((o) => {
    const text = o['name'] ?? o['title'] ?? o['label'] ?? o['text'] ?? o['description'];
    return typeof text === 'string' ? text : JSON.stringify(o);
  }),
]);

export const planSchema = z.looseObject({
  id: id.optional(),
  name: z.string(),
  slug: z.string(),
  description: nullableString,
  /** `null` when the API sends none or a blank one: the plan is listed without a price. */
  price: decimal.nullish().transform((price) => (price?.trim() ? price : null)),
  currency: z.string(),
  interval: z.string(),
  features: listOrEmpty(featureSchema),
  subscribe_url: webUrlField,
});
export type Plan = z.output<typeof planSchema>;

export const editionPageSchema = z.looseObject({
  page_number: int,
  /** '' when not http(s): such pages are left out (epaper/load.ts). */
  image_url: z.string().transform((value) => webUrl(value) ?? ''),
  width: int.nullish(),
  height: int.nullish(),
});
export type EditionPage = z.output<typeof editionPageSchema>;

export const editionSchema = z.looseObject({
  id: id.optional(),
  title: z.string(),
  slug: z.string(),
  page_count: nullAsAbsent(int),
  is_free: flag,
  reader_url: webUrlField,
  requires_subscription: flag,
  cover_image_url: webUrlField,
  published_at: nullableString,
  pages: listOrEmpty(editionPageSchema),
});
export type Edition = z.output<typeof editionSchema>;

export const streamSchema = z.looseObject({
  id: id.optional(),
  title: z.string(),
  slug: z.string(),
  is_live: flag,
  /** `live`, `scheduled` or `ended` in the mock; other values pass. */
  status: z.string().optional(),
  watch_url: webUrlField,
  provider: nullableString,
  stream_url: webUrlField,
  /** Sanitized (iframe host allow-list) by the time it leaves the client. */
  embed_code: nullableString,
  description: nullableString,
  thumbnail_url: webUrlField,
  scheduled_at: nullableString,
  started_at: nullableString,
  ended_at: nullableString,
});
export type Stream = z.output<typeof streamSchema>;

const commentFields = {
  id,
  content: z.string(),
  author_name: textOrEmpty,
  created_at: nullableString,
  status: z.string().optional(),
  parent_id: id.nullish(),
};

export interface Comment extends z.output<z.ZodObject<typeof commentFields>> {
  replies: Comment[];
}

export const commentSchema: z.ZodType<Comment> = z.looseObject({
  ...commentFields,
  get replies() {
    return listOrEmpty(commentSchema);
  },
});

export const postListSchema = listOf(postSummarySchema);
export const categoryListSchema = listOf(categorySchema);
export const tagListSchema = listOf(tagSchema);
export const planListSchema = listOf(planSchema);
export const editionListSchema = listOf(editionSchema);
export const streamListSchema = listOf(streamSchema);
export const commentListSchema = listOf(commentSchema);

/** `{ category|tag, posts, meta }`, posts as an array or a nested paginator. */
const archive = { posts: listOf(postSummarySchema), meta: pageMetaSchema.optional() };
export const categoryDetailSchema = enveloped(
  z.looseObject({ category: categorySchema, ...archive }),
);
export const tagDetailSchema = enveloped(z.looseObject({ tag: tagSchema, ...archive }));

export const singlePostSchema = enveloped(postSchema);
export const singlePlanSchema = enveloped(planSchema);
export const singleEditionSchema = enveloped(editionSchema);
export const singleStreamSchema = enveloped(streamSchema);
export const meSchema = enveloped(userSchema);

/** `{ data: { id, content, status }, message }`: both halves kept. */
export const commentCreatedSchema = z.preprocess(
  (value) => {
    if (isRecord(value) && 'data' in value)
      return { comment: value['data'], message: value['message'] };
    return { comment: value };
  },
  z.object({
    comment: z.looseObject({ id, content: z.string().optional(), status: z.string().optional() }),
    message: z.string().optional(),
  }),
);
export type CommentCreated = z.output<typeof commentCreatedSchema>;

// Inputs (what pages and actions send): plain types, the site checks them before sending.

export interface CommentInput {
  content: string;
  parent_id?: number | string | undefined;
  /** Guests only. */
  author_name?: string | undefined;
  author_email?: string | undefined;
}

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
}
