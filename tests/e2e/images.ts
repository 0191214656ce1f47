// Reading the site's image-route addresses (`/_img/…`, src/lib/images/address.ts) in e2e tests.

/** The upstream picture a public image address stands for, or null for another address. */
export function upstreamOf(src: string | null): string | null {
  const match = /\/_img\/u\/([\w-]+)\//.exec(src ?? '');
  return match?.[1] ? Buffer.from(match[1], 'base64url').toString('utf8') : null;
}

/** `{ edition, page }` of a subscriber page's address, or null. */
export function editionPageOf(src: string | null): { edition: string; page: number } | null {
  const match = /\/_img\/e\/([^/]+)\/(\d+)\//.exec(src ?? '');
  return match?.[1] ? { edition: decodeURIComponent(match[1]), page: Number(match[2]) } : null;
}
