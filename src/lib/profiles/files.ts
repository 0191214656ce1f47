import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileTexts } from './schema.ts';
import type { ProfileTexts } from './schema.ts';

/** The profile files of a project's `profiles/` folder, read from disk (scripts: doctor, static build). */
export function readProfileTexts(dir = 'profiles'): ProfileTexts {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    names = [];
  }
  return profileTexts(names.map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}
