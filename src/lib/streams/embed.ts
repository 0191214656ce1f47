import sanitizeHtml from 'sanitize-html';
import { DEFAULT_IFRAME_HOSTS, isEmbeddable } from '../content/sanitize.ts';
import type { Stream } from '../publishing/schema.ts';
import { webUrl } from '../upstream/parse.ts';
import { isLoopback } from '../settings/listen.ts';
import type { Tenant } from '../tenants/schema.ts';

/** Scripts for the player, its own origin for its storage, fullscreen; no forms, popups or top navigation. */
export const PLAYER_SANDBOX = 'allow-scripts allow-same-origin allow-presentation';
export const PLAYER_ALLOW = 'autoplay; fullscreen; picture-in-picture';

/** Player hosts a tenant may embed: YouTube's and Vimeo's embed hosts and the tenant's `publishing.embedHosts`. */
export function playerHosts(tenant: Pick<Tenant, 'publishing'>): string[] {
  return [...DEFAULT_IFRAME_HOSTS, ...tenant.publishing.embedHosts];
}

/** The `src` of the first `<iframe>` in embed HTML (entities decoded); `null` when there is none. */
export function iframeSrc(html: string | null | undefined): string | null {
  let src: string | undefined;
  // Only sanitize-html's parser is wanted here: its output is thrown away.
  sanitizeHtml(html ?? '', {
    transformTags: {
      iframe: (tagName, attribs) => {
        src ??= attribs['src'];
        return { tagName, attribs };
      },
    },
  });
  return src?.trim() || null;
}

/**
 * A player address the page may frame: https (http only on loopback, for local players), no
 * credentials, a host in `hosts`, and not on the site's own host (a same-origin frame with
 * `allow-scripts allow-same-origin` could lift its own sandbox). The host, whatever the scheme: the
 * page's scheme is what a proxy's `X-Forwarded-Proto` says, and one cached copy of the page serves
 * both.
 */
export function allowedPlayerUrl(
  candidate: string | null | undefined,
  hosts: readonly string[],
  siteOrigin?: string,
): URL | null {
  const url = candidate ? URL.parse(candidate) : null;
  if (!url) return null;
  const secure =
    url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  if (!secure || url.username || url.password) return null;
  if (!isEmbeddable(url, hosts)) return null;
  if (siteOrigin !== undefined && url.host === URL.parse(siteOrigin)?.host) return null;
  return url;
}

const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  youtube: 'YouTube',
  vimeo: 'Vimeo',
  twitch: 'Twitch',
  facebook: 'Facebook',
};

/** A readable provider name: `masthead-player` → "Masthead Player", `youtube` → "YouTube". */
export function providerName(
  provider: string | null | undefined,
  watchUrl?: string | null,
): string {
  const key = provider?.trim().toLowerCase();
  if (key) {
    const words = key.split(/[-_\s]+/).filter(Boolean);
    return (
      PROVIDER_NAMES[key] ?? words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ')
    );
  }
  const host = watchUrl && URL.parse(watchUrl)?.hostname.replace(/^www\./, '');
  return host || 'the provider’s site';
}

export type StreamPlayer =
  | { kind: 'embed'; src: string; origin: string }
  | { kind: 'link'; href: string; provider: string }
  | { kind: 'none' };

type PlayerFields = Pick<Stream, 'embed_code' | 'stream_url' | 'watch_url' | 'provider'>;

/**
 * What the detail page shows as the player: a sandboxed iframe built from the sanitized embed's
 * `src` (or `stream_url`) when the host is allowed, otherwise a "Watch on …" link to `watch_url`.
 */
export function streamPlayer(
  stream: PlayerFields,
  hosts: readonly string[],
  siteOrigin?: string,
): StreamPlayer {
  const src =
    allowedPlayerUrl(iframeSrc(stream.embed_code), hosts, siteOrigin) ??
    allowedPlayerUrl(stream.stream_url, hosts, siteOrigin);
  if (src) return { kind: 'embed', src: src.toString(), origin: src.origin };
  const href = webUrl(stream.watch_url);
  if (href) return { kind: 'link', href, provider: providerName(stream.provider, href) };
  return { kind: 'none' };
}
