/**
 * The e-paper reader's and paywall's newer UI text in one place, for translation. (Older strings are
 * still inline in Reader.astro, Paywall.astro and `pageAlt` in reader.ts.)
 */
export const READER_TEXT = {
  fullscreen: 'Full screen',
  exitFullscreen: 'Exit full screen',
  /** `Page 3 of 16`. */
  onePage: (page: number, count: number) => `Page ${page} of ${count}`,
  /** `Pages 2–3 of 16`: a two-page spread. */
  twoPages: (left: number, right: number, count: number) => `Pages ${left}–${right} of ${count}`,
  /** Above the plan the paywall leads with. */
  leadBadge: 'Includes the e-paper',
  allPlans: 'All plans',
} as const;
