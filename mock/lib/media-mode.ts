import { z } from 'zod';

/**
 * What the mock's media URLs serve: `svg`, small placeholder drawings (the default), or `photos`,
 * camera-size JPEGs as a newsroom uploads them (3000×2000 covers, 2200×3000 page scans, editions of
 * 24–26 pages). Same seed, same mode → same bytes.
 */
export const MEDIA_MODES = ['svg', 'photos'] as const;
export type MediaMode = (typeof MEDIA_MODES)[number];
const MediaModeSchema = z.enum(MEDIA_MODES);

/** `MOCK_MEDIA`; an unknown value is a start-up error, not a silent default. */
export function envMedia(): MediaMode | undefined {
  const raw = process.env['MOCK_MEDIA']?.trim();
  if (!raw) return undefined;
  const parsed = MediaModeSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`MOCK_MEDIA must be one of ${MEDIA_MODES.join(', ')}`);
  return parsed.data;
}

type Size = { width: number; height: number };
export type MediaKind = 'cover' | 'figure' | 'page' | 'stream';

const SIZES: Record<MediaMode, Record<MediaKind, Size>> = {
  svg: {
    cover: { width: 1600, height: 900 },
    figure: { width: 1200, height: 800 },
    page: { width: 1200, height: 1600 },
    stream: { width: 1280, height: 720 },
  },
  photos: {
    cover: { width: 3000, height: 2000 },
    figure: { width: 3000, height: 2000 },
    page: { width: 2200, height: 3000 },
    stream: { width: 1920, height: 1080 },
  },
};

/** Pixel size of one kind of picture in a mode (edition covers are pages). */
export const mediaSize = (mode: MediaMode, kind: MediaKind): Size => SIZES[mode][kind];

/** The file extension media URLs carry in a mode. */
export const mediaExtension = (mode: MediaMode): 'svg' | 'jpg' =>
  mode === 'photos' ? 'jpg' : 'svg';

/** Pages of an edition: the seeded 8–16, or 24–26 in photo mode (a real weekend edition). */
export const editionPages = (mode: MediaMode, seeded: number): number =>
  mode === 'photos' ? 24 + (seeded % 3) : seeded;
