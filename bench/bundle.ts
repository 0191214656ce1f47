import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export interface BundleSize {
  files: string[];
  bytes: number;
  gzipBytes: number;
}

/**
 * The built client script that contains `marker` and every chunk it imports, from `<clientDir>/_astro`
 * (gzip level 9, each file on its own, as a browser fetches them). Null when no build has it.
 */
export function bundleSize(clientDir: string, marker: string): BundleSize | null {
  const dir = `${clientDir}/_astro`;
  if (!existsSync(dir)) return null;
  const scripts = readdirSync(dir).filter((name) => name.endsWith('.js'));
  const entry = scripts.find((name) => readFileSync(`${dir}/${name}`, 'utf8').includes(marker));
  if (!entry) return null;
  const files = new Set<string>();
  const visit = (name: string): void => {
    if (files.has(name) || !existsSync(`${dir}/${name}`)) return;
    files.add(name);
    const code = readFileSync(`${dir}/${name}`, 'utf8');
    for (const match of code.matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g)) {
      visit(match[1]!);
    }
  };
  visit(entry);
  let bytes = 0;
  let gzipBytes = 0;
  for (const name of files) {
    const content = readFileSync(`${dir}/${name}`);
    bytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  return { files: [...files], bytes, gzipBytes };
}
