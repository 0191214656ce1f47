/**
 * A post's image under the names real publishing APIs use, moved into the contract's
 * `cover_image_url` / `_width` / `_height` (plus `cover_image_alt`) before the post is validated.
 * The contract leaves the field unnamed; docs/api-assumptions.md lists the shapes accepted.
 */
const IMAGE_FIELDS = [
  'featured_image',
  'cover_image',
  'image',
  'thumbnail',
  'featured_image_url',
  'image_url',
  'thumbnail_url',
] as const;
const URL_KEYS = ['url', 'src', 'href', 'source_url', 'original'] as const;

interface CoverImage {
  url: string;
  width?: number;
  height?: number;
  alt?: string;
}

function dimension(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** `"https://…"` or `{ url|src|href|source_url|original, width?, height?, alt? }`. */
function imageFrom(value: unknown): CoverImage | undefined {
  if (typeof value === 'string') return value.trim() ? { url: value.trim() } : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const url = URL_KEYS.map((key) => record[key]).find(
    (candidate): candidate is string => typeof candidate === 'string' && candidate.trim() !== '',
  );
  if (!url) return undefined;
  const width = dimension(record['width']);
  const height = dimension(record['height']);
  const alt = typeof record['alt'] === 'string' ? record['alt'] : undefined;
  return {
    url: url.trim(),
    ...(width ? { width } : {}),
    ...(height ? { height } : {}),
    ...(alt !== undefined ? { alt } : {}),
  };
}

/** Fills `cover_image_*` from the first other image field, unless the contract's field is set. */
export function normalizePostImage(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const post = value as Record<string, unknown>;
  if (typeof post['cover_image_url'] === 'string' && post['cover_image_url'] !== '') return value;
  for (const field of IMAGE_FIELDS) {
    const image = imageFrom(post[field]);
    if (!image) continue;
    return {
      ...post,
      cover_image_url: image.url,
      cover_image_width: post['cover_image_width'] ?? image.width ?? null,
      cover_image_height: post['cover_image_height'] ?? image.height ?? null,
      ...(image.alt !== undefined ? { cover_image_alt: image.alt } : {}),
    };
  }
  return value;
}
