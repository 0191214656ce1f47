import type { Hono } from 'hono';
import { z } from 'zod';
import { notFound, readBody } from '../lib/http.ts';
import type { Stream } from '../publishing/model.ts';
import type { MockState } from '../state.ts';

/**
 * Body of `POST /streams`: puts one stream (`slug`) or every stream of a tenant into a state, e.g.
 * to show a page with a stream live, scheduled later today, or none live at all.
 */
export const StreamPatchSchema = z.object({
  tenant: z.string().min(1),
  slug: z.string().min(1).optional(),
  status: z.enum(['live', 'scheduled', 'ended']),
  /** Start (live, scheduled) or end (ended) time; default now (scheduled: in an hour). */
  at: z.iso.datetime({ offset: true }).optional(),
});
type StreamPatch = z.infer<typeof StreamPatchSchema>;

const HOUR = 3_600_000;

function moved(stream: Stream, { status, at }: StreamPatch, now: number): Stream {
  const iso = (fallback: number) => new Date(at ?? fallback).toISOString();
  if (status === 'live') {
    const started = iso(now);
    return { ...stream, status, scheduledAt: started, startedAt: started, endedAt: null };
  }
  if (status === 'scheduled') {
    return { ...stream, status, scheduledAt: iso(now + HOUR), startedAt: null, endedAt: null };
  }
  const ended = iso(now);
  return { ...stream, status, startedAt: stream.startedAt ?? stream.scheduledAt, endedAt: ended };
}

/** `POST /streams` on the control server: stream states for tests (`POST /reset` restores the seed). */
export function streamControlRoutes(app: Hono, state: MockState): void {
  app.post('/streams', async (c) => {
    const input = StreamPatchSchema.safeParse(await readBody(c));
    if (!input.success)
      return c.json({ message: 'Invalid control request.', issues: input.error.issues }, 422);
    const site = state.publishing.sites.get(input.data.tenant);
    if (!site) return notFound(c, 'Tenant not found.');
    const { slug } = input.data;
    if (slug && !site.streams.some((stream) => stream.slug === slug))
      return notFound(c, 'Stream not found.');
    const now = Date.now();
    site.streams = site.streams.map((stream) =>
      !slug || stream.slug === slug ? moved(stream, input.data, now) : stream,
    );
    return c.json({
      streams: site.streams.map(({ slug: s, status, scheduledAt }) => ({
        slug: s,
        status,
        scheduledAt,
      })),
    });
  });
}
