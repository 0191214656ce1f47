// `npm run screenshots`: every page type of every demo tenant at 390 and 1280 px, light and dark,
// as PNGs in screenshots/<tenant>/<page>-<width>-<scheme>.png, so the whole site can be reviewed at once.
// Uses the servers on the e2e ports when they run; otherwise builds, starts mock and site, and stops them.
// Narrow it down with SCREENSHOT_TENANTS, SCREENSHOT_PAGES, SCREENSHOT_WIDTHS, SCREENSHOT_SCHEMES (comma lists);
// SCREENSHOT_SCALE=2 takes them as a dense screen shows them (files named <width>@2x).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { DEMO_TENANTS, pageTypes } from '../tests/e2e/page-types.ts';

const PORT = Number(process.env.E2E_PORT ?? 4400);
const OUT = new URL('../screenshots/', import.meta.url);
const list = (name: string, fallback: string[]) =>
  process.env[name]
    ?.split(',')
    .map((value) => value.trim())
    .filter(Boolean) ?? fallback;

async function up(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function waitFor(url: string, seconds: number): Promise<void> {
  for (let i = 0; i < seconds * 4; i += 1) {
    if (await up(url)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not come up within ${seconds} s`);
}

const children: ChildProcess[] = [];
function start(args: string[], env: Record<string, string> = {}): void {
  children.push(
    spawn(process.execPath, args, { stdio: 'ignore', env: { ...process.env, ...env } }),
  );
}

if (!(await up('http://127.0.0.1:4009/stats'))) {
  start(['mock/server.ts'], { MOCK_LIMIT_PUBLIC: '0', MOCK_LIMIT_LODGING: '0' });
  await waitFor('http://127.0.0.1:4009/stats', 30);
}
if (!(await up(`http://127.0.0.1:${PORT}/favicon.svg`))) {
  if (!existsSync('dist/server/entry.mjs') || process.env.SCREENSHOT_BUILD !== '0') {
    execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  }
  start(['scripts/e2e-server.mjs'], {
    E2E_PORT: String(PORT),
    // Many pages in a row: a high budget (0 is not a valid budget and would fail every page).
    PUBLISHING_PUBLIC_PER_MINUTE: '6000',
    LODGING_PER_MINUTE: '6000',
    // One browser on loopback is one visitor: it may spend the whole budget.
    UPSTREAM_VISITOR_SHARE: '1',
    UPSTREAM_LODGING_SEARCH_SHARE: '1',
  });
  await waitFor(`http://127.0.0.1:${PORT}/favicon.svg`, 60);
}

const browser = await chromium.launch({
  ...(existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {}),
  args: ['--no-sandbox', '--disable-gpu'],
});
let count = 0;
try {
  const tenants = list(
    'SCREENSHOT_TENANTS',
    DEMO_TENANTS.map((tenant) => tenant.id),
  );
  const pages = list('SCREENSHOT_PAGES', []);
  const widths = list('SCREENSHOT_WIDTHS', ['390', '1280']).map(Number);
  const schemes = list('SCREENSHOT_SCHEMES', ['light', 'dark']) as ('light' | 'dark')[];
  const scale = Number(process.env.SCREENSHOT_SCALE ?? 1);
  for (const tenant of DEMO_TENANTS.filter((t) => tenants.includes(t.id))) {
    mkdirSync(new URL(`${tenant.id}/`, OUT), { recursive: true });
    const types = (await pageTypes(tenant)).filter(
      (type) => pages.length === 0 || pages.includes(type.name),
    );
    for (const width of widths) {
      for (const colorScheme of schemes) {
        const context = await browser.newContext({
          viewport: { width, height: width < 600 ? 844 : 900 },
          colorScheme,
          deviceScaleFactor: scale,
        });
        const page = await context.newPage();
        for (const type of types) {
          await page.goto(`http://${tenant.id}.localhost:${PORT}${type.path}`, {
            waitUntil: 'networkidle',
          });
          const file = new URL(
            `${tenant.id}/${type.name}-${width}${scale === 1 ? '' : `@${scale}x`}-${colorScheme}.png`,
            OUT,
          );
          await page.screenshot({ path: file.pathname, fullPage: true });
          count += 1;
        }
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  for (const child of children) child.kill('SIGTERM');
}
console.log(`Wrote ${count} screenshots to ${OUT.pathname}`);
