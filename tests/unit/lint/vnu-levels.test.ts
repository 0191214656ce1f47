import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { vnuErrors } from '../../vnu.ts';

// The Nu checker as the deploy and static suites run it: real errors count, warnings do not.
const folder = mkdtempSync(join(tmpdir(), 'vnu-levels-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const page = (body: string) =>
  `<!doctype html><html lang="en"><head><title>t</title></head><body>${body}</body></html>`;

it('reports a real error, and the player sandbox only as the warning it is', async () => {
  writeFileSync(
    join(folder, 'player.html'),
    page(
      '<iframe title="Player" src="https://www.youtube-nocookie.com/embed/x" sandbox="allow-scripts allow-same-origin allow-presentation"></iframe>',
    ),
  );
  writeFileSync(join(folder, 'broken.html'), page('<img alt="">'));
  const errors = await vnuErrors(folder);
  expect(errors.map((error) => error.url.split('/').at(-1))).toEqual(['broken.html']);
}, 60_000);
