/**
 * The baseline of issue 36: a bare Astro 7 + `@astrojs/node` (standalone) project, generated into a
 * temporary directory with this repo's node_modules, whose on-demand pages render given HTML byte
 * for byte (`<Fragment set:html>`: no layout, no middleware, no data, no cache). Started as
 * `node dist/server/entry.mjs`, as its own README would say.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '../tests/deploy/http.ts';
import { freePort, Service } from '../tests/deploy/processes.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

export interface BareProject {
  port: number;
  pid: number | undefined;
  stop: () => Promise<void>;
}

/** `pages` maps a page name (`post` → `/post`) to the HTML it answers. */
export async function startBareAstro(pages: Record<string, string>): Promise<BareProject> {
  const dir = mkdtempSync(join(tmpdir(), 'masthead-bare-astro-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(
    join(dir, 'astro.config.mjs'),
    [
      "import { defineConfig } from 'astro/config';",
      "import node from '@astrojs/node';",
      "export default defineConfig({ output: 'server', adapter: node({ mode: 'standalone' }) });",
      '',
    ].join('\n'),
  );
  mkdirSync(join(dir, 'src/pages'), { recursive: true });
  mkdirSync(join(dir, 'src/html'));
  for (const [name, html] of Object.entries(pages)) {
    writeFileSync(join(dir, 'src/html', `${name}.html`), html);
    writeFileSync(
      join(dir, 'src/pages', `${name}.astro`),
      `---\nimport html from '../html/${name}.html?raw';\n---\n\n<Fragment set:html={html} />\n`,
    );
  }
  execFileSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: dir,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const port = await freePort();
  const server = new Service(
    `bare astro :${port}`,
    port,
    process.execPath,
    [join(dir, 'dist/server/entry.mjs')],
    { ...process.env, HOST: '127.0.0.1', PORT: String(port) },
  );
  await server.start();
  // The same bytes, or the comparison says nothing.
  for (const [name, html] of Object.entries(pages)) {
    const reply = await send(`http://127.0.0.1:${port}/${name}`);
    if (reply.text !== html) throw new Error(`the bare project's /${name} differs from its HTML`);
  }
  return {
    port,
    get pid() {
      return server.pid;
    },
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
