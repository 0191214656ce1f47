// Playwright's web server for playwright.third.config.ts: what a developer with an API shaped like
// neither mock dialect does. The third API (tests/fixtures/third-api.ts) on THIRD_API_PORT and the
// random-names API (tests/fixtures/random-api.ts: paths and fields made up afresh on this start) on
// RANDOM_API_PORT; a fork of this project in .cache/third-fork/ (src/ copied untouched, its own
// tenants.json naming one tenant on each, neither with a profile); `npm run doctor -- <id> --write`
// there for each; one build; its server on THIRD_PORT serving both tenants.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  THIRD_TENANT,
  THIRD_TOKEN,
  startThirdApi,
  thirdTenantsJson,
} from '../fixtures/third-api.ts';
import {
  RANDOM_PROPERTY,
  RANDOM_TENANT,
  RANDOM_TOKEN,
  startRandomApi,
} from '../fixtures/random-api.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const port = Number(process.env['THIRD_PORT'] ?? 4800);
const apiPort = Number(process.env['THIRD_API_PORT'] ?? 4810);
const randomPort = Number(process.env['RANDOM_API_PORT'] ?? 4820);
const TOKEN_ENV = 'THIRD_LODGING_TOKEN';
const RANDOM_TOKEN_ENV = 'RANDOM_LODGING_TOKEN';

const api = await startThirdApi(apiPort);
const randomApi = await startRandomApi(randomPort);
// One place, emptied first: a run Playwright stopped hard may have left one.
const fork = join(root, '.cache', 'third-fork');
rmSync(fork, { recursive: true, force: true });
mkdirSync(fork, { recursive: true });
for (const part of ['src', 'public', 'scripts', 'profiles']) {
  cpSync(join(root, part), join(fork, part), { recursive: true });
}
for (const file of ['astro.config.mjs', 'package.json', 'tsconfig.json']) {
  cpSync(join(root, file), join(fork, file));
}
// Its own node_modules folder of links to this project's packages: Vite's and Astro's caches and
// the session files stay in the fork.
mkdirSync(join(fork, 'node_modules'));
for (const name of readdirSync(join(root, 'node_modules'))) {
  if (name === '.vite' || name === '.astro') continue;
  symlinkSync(join(root, 'node_modules', name), join(fork, 'node_modules', name));
}
mkdirSync(join(fork, '.cache'), { recursive: true });
const tenants = JSON.parse(thirdTenantsJson(api, `${THIRD_TENANT}.localhost`, TOKEN_ENV)) as {
  tenants: unknown[];
};
tenants.tenants.push({
  id: RANDOM_TENANT,
  name: 'Random Times',
  hosts: [`${RANDOM_TENANT}.localhost`],
  locale: 'en-US',
  timeZone: 'America/New_York',
  theme: { colors: { primary: '#1f4e3d', accent: '#b3261e' } },
  publishing: { baseUrl: randomApi.publishingUrl },
  lodging: {
    baseUrl: randomApi.lodgingUrl,
    tokenEnv: RANDOM_TOKEN_ENV,
    propertyIds: [RANDOM_PROPERTY],
  },
  features: { booking: true },
});
writeFileSync(join(fork, 'tenants.json'), `${JSON.stringify(tenants, null, 2)}\n`);
// This start's made-up words, for tests/e2e-third/random.spec.ts to read the API as it holds things.
writeFileSync(
  join(fork, 'random-api.json'),
  JSON.stringify({ lodgingUrl: randomApi.lodgingUrl, words: randomApi.words }),
);

const env = {
  ...process.env,
  [TOKEN_ENV]: THIRD_TOKEN,
  [RANDOM_TOKEN_ENV]: RANDOM_TOKEN,
  ASTRO_TELEMETRY_DISABLED: '1',
};
// Never spawnSync: the fixture APIs answer from this process's event loop.
const run = async (what: string, args: string[]) => {
  const child = spawn(process.execPath, args, { cwd: fork, env, stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) {
    console.error(`${what} failed (exit ${code ?? 'none'}); the fork is at ${fork}`);
    process.exit(1);
  }
};
// The one command of the issue: it writes profiles/third-times-*.json and names them in tenants.json.
await run('npm run doctor -- third-times --write', ['scripts/doctor.ts', THIRD_TENANT, '--write']);
await run('npm run doctor -- random-times --write', [
  'scripts/doctor.ts',
  RANDOM_TENANT,
  '--write',
]);
// One build serves both tenants: the profiles the doctors wrote are bundled into it.
await run('npm run build', ['node_modules/astro/bin/astro.mjs', 'build']);

const server = spawn(process.execPath, ['dist/server/entry.mjs'], {
  cwd: fork,
  stdio: 'inherit',
  env: {
    ...env,
    HOST: '127.0.0.1',
    PORT: String(port),
    // The budgets stay at their defaults, the 60 a minute the third API announces in its headers;
    // the one test visitor (127.0.0.1) may spend all of them.
    UPSTREAM_VISITOR_SHARE: '1',
    UPSTREAM_LODGING_SEARCH_SHARE: '1',
    BOOKING_PER_IP_PER_10_MIN: '200',
    BOOKING_SEARCHES_PER_IP_PER_MIN: '600',
  },
});
const stop = async (code: number) => {
  server.kill('SIGTERM');
  await api.close();
  await randomApi.close();
  rmSync(fork, { recursive: true, force: true });
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));
server.on('exit', (code) => void stop(code ?? 0));
