import type { Stream } from '../publishing/schema.ts';
import { publishingFor } from '../services/clients.ts';
import { warmNavigation } from '../reading/loaders.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Paged } from '../upstream/parse.ts';
import { isDue } from './cache-life.ts';
import { sortStreams } from './status.ts';

export const STREAMS_PER_PAGE = 12;

/**
 * One page of streams, live first, then scheduled (soonest), then ended (latest). A list with a
 * stream past its start but still called scheduled is read again past the cache (./cache-life.ts).
 */
export async function loadStreams(
  tenant: Tenant,
  page: number,
  now = Date.now(),
): Promise<Paged<Stream>> {
  warmNavigation(tenant);
  const paged = await streamList(tenant, { page, perPage: STREAMS_PER_PAGE }, now);
  return { ...paged, items: sortStreams(paged.items) };
}

/** A page of the stream list, read afresh when a stream on it is due to have started. */
export async function streamList(
  tenant: Tenant,
  params: { page: number; perPage: number },
  now = Date.now(),
): Promise<Paged<Stream>> {
  const client = publishingFor(tenant);
  const paged = await client.listStreams(params);
  if (!paged.items.some((stream) => isDue(stream, now))) return paged;
  return client.listStreams(params, { fresh: true });
}

/** One stream (read afresh when due to have started); unknown → `NotFoundError` (404). */
export async function loadStream(tenant: Tenant, slug: string, now = Date.now()): Promise<Stream> {
  warmNavigation(tenant);
  const client = publishingFor(tenant);
  const stream = await client.getStream(slug);
  return isDue(stream, now) ? client.getStream(slug, { fresh: true }) : stream;
}
