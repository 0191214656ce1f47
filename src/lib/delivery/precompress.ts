import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { MIN_COMPRESS_BYTES } from './compression.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Extensions of the text assets a build emits (the same kinds the server compresses on the fly). */
export const PRECOMPRESSED_EXTENSIONS = new Set([
  '.html',
  '.css',
  '.js',
  '.mjs',
  '.json',
  '.xml',
  '.svg',
  '.txt',
  '.webmanifest',
]);

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset of `dir` worth compressing, at the
 * highest levels (done once per build, so the server only streams bytes). Returns how many.
 */
export async function precompressAssets(dir: string): Promise<number> {
  let count = 0;
  for await (const path of files(dir)) {
    if (!PRECOMPRESSED_EXTENSIONS.has(extname(path))) continue;
    const content = await readFile(path);
    if (content.length < MIN_COMPRESS_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzipAsync(content, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
    count += 1;
  }
  return count;
}
