import type { Stream } from '../publishing/schema.ts';
import { streamStatus } from './status.ts';

/**
 * schema.org `VideoObject` with its `BroadcastEvent` (the markup search engines read for live video);
 * `null` when the stream has no thumbnail or date, which that markup requires.
 */
export function streamLd(
  stream: Stream,
  canonical: string,
  /** The thumbnail as the site serves it (the image route); the upstream's by default. */
  thumbnail: string | null | undefined = stream.thumbnail_url,
): Record<string, unknown> | null {
  const start = stream.started_at ?? stream.scheduled_at;
  if (!thumbnail || !start) return null;
  const status = streamStatus(stream);
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: stream.title,
    description: stream.description || stream.title,
    thumbnailUrl: thumbnail,
    uploadDate: start,
    url: canonical,
    ...(stream.watch_url ? { contentUrl: stream.watch_url } : {}),
    publication: {
      '@type': 'BroadcastEvent',
      isLiveBroadcast: status === 'live',
      startDate: start,
      ...(stream.ended_at ? { endDate: stream.ended_at } : {}),
    },
  };
}
