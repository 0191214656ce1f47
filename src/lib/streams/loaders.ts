import type { Stream } from '../publishing/schema.ts';
import { publishingFor } from '../site/clients.ts';
import { warmNavigation } from '../reading/loaders.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Paged } from '../upstream/parse.ts';
import { sortStreams } from './status.ts';

export const STREAMS_PER_PAGE = 12;

/** Route-cache lifetimes: live status flips, so pages stay fresh for seconds, not minutes. */
export const STREAM_CACHE = { maxAge: 30, swr: 60 } as const;

/** Whether the tenant has the streams section (off → the routes answer 404). */
export function streamsEnabled(tenant: Pick<Tenant, 'features'>): boolean {
  return tenant.features.streams;
}

/** One page of streams, live first, then scheduled (soonest), then ended (latest). */
export async function loadStreams(tenant: Tenant, page: number): Promise<Paged<Stream>> {
  warmNavigation(tenant);
  const paged = await publishingFor(tenant).listStreams({ page, perPage: STREAMS_PER_PAGE });
  return { ...paged, items: sortStreams(paged.items) };
}

/** One stream; unknown → `NotFoundError` (the page answers 404). */
export function loadStream(tenant: Tenant, slug: string): Promise<Stream> {
  warmNavigation(tenant);
  return publishingFor(tenant).getStream(slug);
}
