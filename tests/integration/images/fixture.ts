import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetSettings } from '../../../src/lib/settings/settings.ts';

/**
 * An upstream on a free loopback port and the image settings in `env` (plus a fresh cache folder)
 * for the site's own pipeline; `close()` undoes both.
 */
export async function imageUpstream(listener: RequestListener, env: Record<string, string> = {}) {
  const server = createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const dir = await mkdtemp(join(tmpdir(), 'masthead-images-'));
  const settings = { IMAGE_CACHE_DIR: dir, ...env };
  Object.assign(process.env, settings);
  forgetSettings();
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.close();
      for (const name of Object.keys(settings)) delete process.env[name];
      forgetSettings();
      await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
