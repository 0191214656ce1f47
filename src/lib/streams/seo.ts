import { isoInstant } from '../i18n/format.ts';
import type { Stream } from '../publishing/schema.ts';

/** Addresses of a media file (not a page): what `contentUrl` may name. */
const MEDIA_FILE = /\.(?:m3u8|mpd|mp4|m4v|webm|ogv|mov)$/i;

/**
 * schema.org `VideoObject` with its `BroadcastEvent` (Google's livestream markup); `null` when the
 * stream has no thumbnail or date, which that markup requires.
 *
 * `isLiveBroadcast` is true for every stream: Google asks for true when the video is, has been or
 * will be streamed live. `endDate` only from the upstream's `ended_at`: the publishing API names no
 * planned end, and a guessed one would be wrong. The player goes in `embedUrl`; `contentUrl` names
 * the video file itself, so only an address of a media file (an HLS/DASH manifest, an MP4…).
 */
export function streamLd(
  stream: Stream,
  canonical: string,
  /** The thumbnail as the site serves it (the image route); the upstream's by default. */
  thumbnail: string | null | undefined = stream.thumbnail_url,
  /** The player the page frames (`streamPlayer`'s `src`); the upstream's `stream_url` by default. */
  player: string | null | undefined = stream.stream_url,
): Record<string, unknown> | null {
  const start = isoInstant(stream.started_at ?? stream.scheduled_at);
  const end = isoInstant(stream.ended_at);
  if (!thumbnail || !start) return null;
  const media = [stream.stream_url, stream.watch_url].find(
    (url) => url && MEDIA_FILE.test(new URL(url).pathname),
  );
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: stream.title,
    description: stream.description || stream.title,
    thumbnailUrl: thumbnail,
    uploadDate: start,
    url: canonical,
    ...(player && player !== media ? { embedUrl: player } : {}),
    ...(media ? { contentUrl: media } : {}),
    publication: {
      '@type': 'BroadcastEvent',
      isLiveBroadcast: true,
      startDate: start,
      ...(end ? { endDate: end } : {}),
    },
  };
}
