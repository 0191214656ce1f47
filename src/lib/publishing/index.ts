export { publishingClient } from './client.ts';
export type {
  CategoryWithPosts,
  PageParams,
  PostListParams,
  PublishingClient,
  PublishingClientOptions,
  ReadOptions,
  TagWithPosts,
} from './client.ts';
export type * from './schema.ts';
