// Client operations the site does not use: post writing and comment moderation (publishing), sign-in,
// `me`, the property list and guest/booking updates (lodging). The suites need them to set up and
// check data, so they are declared here, on the same client core as the site's own operations.
import { lodgingLogin } from '../../src/lib/lodging/auth.ts';
import { lodgingClient, lodgingCore } from '../../src/lib/lodging/client.ts';
import type { LodgingClientOptions } from '../../src/lib/lodging/client.ts';
import {
  meSchema as lodgingMeSchema,
  propertyListSchema,
  singleBookingSchema,
  singleGuestSchema,
} from '../../src/lib/lodging/schema.ts';
import type { GuestInput, Property } from '../../src/lib/lodging/schema.ts';
import { publishingClient, publishingCore } from '../../src/lib/publishing/client.ts';
import type { PublishingClientOptions } from '../../src/lib/publishing/client.ts';
import { commentListSchema } from '../../src/lib/publishing/schema.ts';
import type { Comment } from '../../src/lib/publishing/schema.ts';
import { urlPath } from '../../src/lib/upstream/client-core.ts';
import type { ReadOptions } from '../../src/lib/upstream/client-core.ts';
import { enveloped, id, messageSchema, paged } from '../../src/lib/upstream/parse.ts';
import type { PageParams } from '../../src/lib/upstream/parse.ts';
import { TTL } from '../../src/lib/upstream/ttl.ts';
import { z } from 'zod';

interface PostInput {
  title: string;
  content?: string | undefined;
  status?: 'draft' | 'published' | undefined;
  excerpt?: string | undefined;
  category_id?: number | string | undefined;
  is_featured?: boolean | undefined;
}
type PostUpdate = Partial<PostInput>;
interface BookingUpdate {
  status?: string | undefined;
  notes?: string | undefined;
}

const postWriteResultSchema = enveloped(
  z.looseObject({
    id,
    title: z.string(),
    slug: z.string().optional(),
    status: z.string().optional(),
  }),
);
const commentApprovedSchema = enveloped(z.looseObject({ id, status: z.string().optional() }));

/** The site's publishing client plus post writing and moderation. */
export function publishingTestClient(options: PublishingClientOptions) {
  const core = publishingCore(options);
  return {
    ...publishingClient(options),
    createPost: (input: PostInput) =>
      core.call({
        operation: 'posts.create',
        schema: postWriteResultSchema,
        method: 'POST',
        path: '/posts',
        body: input,
        access: 'personal',
      }),
    updatePost: (id: number | string, input: PostUpdate) =>
      core.call({
        operation: 'posts.update',
        schema: postWriteResultSchema,
        method: 'PATCH',
        path: urlPath`/posts/${id}`,
        body: input,
        access: 'personal',
      }),
    deletePost: async (id: number | string): Promise<void> => {
      await core.call({
        operation: 'posts.delete',
        schema: messageSchema,
        method: 'DELETE',
        path: urlPath`/posts/${id}`,
        access: 'personal',
      });
    },
    /** Editors and admins: comments awaiting moderation (per user, short TTL). */
    listPendingComments: (params: PageParams = {}, readOptions?: ReadOptions) =>
      core.read(
        {
          operation: 'comments.pending',
          schema: commentListSchema,
          path: '/comments',
          query: { status: 'pending', ...paged(params).query },
          access: 'personal',
          ttl: { fresh: 5, stale: 0, errorGrace: 0 },
          map: paged<Comment>(params).map,
        },
        readOptions,
      ),
    approveComment: (id: number | string) =>
      core.call({
        operation: 'comments.approve',
        schema: commentApprovedSchema,
        method: 'POST',
        path: urlPath`/comments/${id}/approve`,
        access: 'personal',
      }),
  };
}

/** The site's lodging client plus sign-in, `me`, the property list and guest/booking updates. */
export function lodgingTestClient(options: LodgingClientOptions) {
  const core = lodgingCore(options);
  return {
    ...lodgingClient(options),
    /** `POST /auth/login` with any credentials (does not change this client's own). */
    login: (email: string, password: string) => lodgingLogin(options, email, password),
    me: (readOptions?: ReadOptions) =>
      core.read(
        {
          operation: 'auth.me',
          schema: lodgingMeSchema,
          path: '/auth/me',
          ttl: { fresh: 60, stale: 300, errorGrace: 900 },
        },
        readOptions,
      ),
    /** Ends the current token's session and forgets a login token. */
    logout: async (): Promise<void> => {
      await core.call({
        operation: 'auth.logout',
        schema: messageSchema,
        method: 'POST',
        path: '/auth/logout',
      });
      core.forgetLogin();
    },
    listProperties: (params: PageParams = {}, readOptions?: ReadOptions) =>
      core.read(
        {
          operation: 'properties.list',
          schema: propertyListSchema,
          path: '/properties',
          ...paged<Property>(params),
          ttl: TTL.propertyList,
        },
        readOptions,
      ),
    updateBooking: (id: string, input: BookingUpdate) =>
      core.call({
        operation: 'bookings.update',
        schema: singleBookingSchema,
        method: 'PATCH',
        path: urlPath`/bookings/${id}`,
        body: input,
      }),
    getGuest: (id: string, readOptions?: ReadOptions) =>
      core.read(
        {
          operation: 'guests.get',
          schema: singleGuestSchema,
          path: urlPath`/guests/${id}`,
          params: { id },
          ttl: TTL.guest,
        },
        readOptions,
      ),
    /** Full replacement, validated like create. */
    updateGuest: (id: string, input: GuestInput) =>
      core.call({
        operation: 'guests.update',
        schema: singleGuestSchema,
        method: 'PUT',
        path: urlPath`/guests/${id}`,
        body: input,
      }),
    deleteGuest: async (id: string): Promise<void> => {
      await core.call({
        operation: 'guests.delete',
        schema: messageSchema,
        method: 'DELETE',
        path: urlPath`/guests/${id}`,
      });
    },
  };
}

export type PublishingTestClient = ReturnType<typeof publishingTestClient>;
export type LodgingTestClient = ReturnType<typeof lodgingTestClient>;
