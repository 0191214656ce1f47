import type { Stream } from '../publishing/schema.ts';
import { publishingFor } from '../services/clients.ts';
import type { Tenant } from '../tenants/schema.ts';
import { NotFoundError } from '../upstream/errors.ts';
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
  return freshOr(() => client.listStreams(params, { fresh: true }), paged);
}

/**
 * The fresh read, or the copy just read when it fails (429, down, slow): the page shows what the
 * site has, as every page does on an upstream failure, instead of a 503 just as viewers arrive for
 * the start. A stream the fresh read finds gone is gone (404).
 */
async function freshOr<T>(read: () => Promise<T>, copy: T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFoundError) throw error;
    return copy;
  }
}

/** One stream (read afresh when due to have started); unknown → `NotFoundError` (404). */
export async function loadStream(tenant: Tenant, slug: string, now = Date.now()): Promise<Stream> {
  const client = publishingFor(tenant);
  const stream = await client.getStream(slug);
  return isDue(stream, now)
    ? freshOr(() => client.getStream(slug, { fresh: true }), stream)
    : stream;
}
