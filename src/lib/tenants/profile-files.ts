import { profileTexts } from '../profiles/schema.ts';
import type { ProfileTexts } from '../profiles/schema.ts';

// Every file of profiles/, bundled at build time (tenants name them; custom ones are added there).
const bundled = import.meta.glob<string>('../../../profiles/*.json', {
  query: '?raw',
  import: 'default',
  eager: true,
});

let texts: ProfileTexts | undefined;

/** The profiles the server was built with: what a tenant of the tenants file may name. */
export function siteProfileTexts(): ProfileTexts {
  texts ??= profileTexts(Object.entries(bundled));
  return texts;
}
