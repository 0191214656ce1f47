// `npm run dev`: the contract mock and `astro dev` together; one Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEnv } from 'vite';
import './check-node.mjs';
import { demoEnv } from './demo-env.mjs';
import {
  controlUrl,
  foreignMessage,
  mockAddress,
  mockApiUrls,
  probeMock,
  siteOverrides,
} from './dev-mock.ts';
import { settingsMessage, settingsProblems } from '../src/lib/settings/settings.ts';

const children = [];
let stopping = false;

function run(name, command, args, env = {}) {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[dev] ${name} stopped (${signal ?? code}); stopping the rest.`);
    stop(code ?? 1);
  });
  children.push(child);
  return child;
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

// Theme work reloads many uncached pages a minute; in dev the mock's public limit and the site's budget
// are raised together (set MOCK_LIMIT_PUBLIC and PUBLISHING_PUBLIC_PER_MINUTE to 60 to feel the real one).
const devLimit = process.env.MOCK_LIMIT_PUBLIC ?? '600';
const useMock =
  process.env.MASTHEAD_MOCK !== '0' && existsSync(new URL('../mock/server.ts', import.meta.url));
const astroEnv = {
  ASTRO_TELEMETRY_DISABLED: '1',
  ...(useMock
    ? {
        PUBLISHING_PUBLIC_PER_MINUTE: process.env.PUBLISHING_PUBLIC_PER_MINUTE ?? devLimit,
        // One developer on loopback is one visitor (charged like any address): the whole budget.
        UPSTREAM_VISITOR_SHARE: process.env.UPSTREAM_VISITOR_SHARE ?? '1',
        UPSTREAM_LODGING_SEARCH_SHARE: process.env.UPSTREAM_LODGING_SEARCH_SHARE ?? '1',
        ...demoEnv(),
      }
    : {}),
};
// `.env` files read as Vite reads them (loadEnv), the environment winning, handed to `astro dev`
// whose settings module reads its environment. The same check as the built server's first:
// otherwise dev starts and every page answers 500.
const fileEnv = loadEnv('development', fileURLToPath(new URL('..', import.meta.url)), '');
const siteEnv = { ...fileEnv, ...astroEnv };
const problems = settingsProblems(siteEnv);
if (problems.length > 0) {
  console.error(`[dev] ${settingsMessage(problems)}`);
  process.exit(1);
}

// The mock where MOCK_HOST / MOCK_*_PORT say (as mock/index.ts reads them): reused when the
// contract mock already answers there, started when the port is free, and a stop with a clear
// message when another program holds it (it would otherwise leave every page a 503).
if (useMock) {
  let address;
  try {
    address = mockAddress();
  } catch (error) {
    console.error(`[dev] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const probe = await probeMock(controlUrl(address));
  if (probe.kind === 'foreign') {
    console.error(foreignMessage(address, probe.detail));
    process.exit(1);
  }
  if (probe.kind === 'mock') {
    console.log(`[dev] a contract mock is already running at ${controlUrl(address)}; using it`);
  } else {
    run('mock', process.execPath, ['mock/server.ts'], { MOCK_LIMIT_PUBLIC: devLimit });
  }
  Object.assign(
    siteEnv,
    siteOverrides(probe.kind === 'mock' ? probe : mockApiUrls(address), siteEnv),
  );
}
run(
  'astro',
  process.execPath,
  ['node_modules/astro/bin/astro.mjs', 'dev', ...process.argv.slice(2)],
  siteEnv,
);
