// `npm run build:static -- <tenant-id>… | --all`: each tenant's public site as plain files in dist-static/<id>/.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import './check-node.mjs';
import { readTenantsFile } from '../src/lib/tenants/loader.ts';
import type { Tenant } from '../src/lib/tenants/schema.ts';
import { buildStaticTenant, describeSummary, staticProblem } from '../src/lib/static/build.ts';
import type { StaticBuildSummary } from '../src/lib/static/build.ts';
import { StaticBuildError } from '../src/lib/static/fetch.ts';
import { createPacingBudget } from '../src/lib/static/pacer.ts';
import { childEnvironment, settingsOrExit } from '../src/lib/settings/settings.ts';

const current = settingsOrExit();

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    all: { type: 'boolean', default: false },
    out: { type: 'string', default: 'dist-static' },
    // Must stay inside the project: the built server resolves its packages from node_modules.
    cache: { type: 'string', default: '.cache/static' },
    // Lists younger than this are not fetched again (posts are kept while their updated_at matches).
    fresh: { type: 'string', default: String(current.MASTHEAD_STATIC_FRESH_SECONDS) },
    // The server's tenants file (TENANTS_FILE), read the same way.
    tenants: { type: 'string', default: current.TENANTS_FILE },
    'skip-server-build': { type: 'boolean', default: false },
    // Machine-readable summaries (the bench reads them).
    'summary-json': { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let tenants: readonly Tenant[];
try {
  tenants = readTenantsFile(values.tenants).file.tenants;
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const freshSeconds = Number(values.fresh);
if (!Number.isFinite(freshSeconds) || freshSeconds < 0) {
  fail(`--fresh must be a number of seconds (got "${values.fresh}")`);
}
if (!values.all && positionals.length === 0) {
  fail('Name a tenant (npm run build:static -- daily-planet) or build all with --all.');
}
const chosen = values.all
  ? tenants
  : positionals.map(
      (id) =>
        tenants.find((tenant) => tenant.id === id) ??
        fail(
          `Unknown tenant "${id}" (${values.tenants} has: ${tenants.map((t) => t.id).join(', ')})`,
        ),
    );
for (const tenant of chosen) {
  const problem = staticProblem(tenant);
  if (problem) fail(problem);
}

const serverDir = `${values.cache}/server`;
if (!values['skip-server-build']) {
  // The same server build as `npm run build`, in its own folder: dist/ stays as it is.
  console.log('Building the site…');
  const built = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnvironment({ MASTHEAD_OUT_DIR: serverDir, ASTRO_TELEMETRY_DISABLED: '1' }),
  });
  if (built.status !== 0) {
    process.stderr.write(built.stdout);
    process.stderr.write(built.stderr);
    fail('The site did not build (output above).');
  }
}

const interactive = process.stdout.isTTY;
let lastLine = 0;
const status = (line: string) => {
  if (interactive) {
    process.stdout.write(`\r\x1b[K${line}`);
  } else if (Date.now() - lastLine > 5000) {
    // Logs and CI: one line every few seconds.
    lastLine = Date.now();
    console.log(line);
  }
};

const summaries: StaticBuildSummary[] = [];
// One budget for the whole run: every tenant reaches the upstream from this machine's address;
// its file keeps the last minute's calls for a build started again at once.
const budget = createPacingBudget({
  limits: {
    publishingPublicPerMinute: current.PUBLISHING_PUBLIC_PER_MINUTE,
    publishingTokenPerMinute: current.PUBLISHING_TOKEN_PER_MINUTE,
  },
  safetyRatio: current.UPSTREAM_BUDGET_RATIO,
  logFile: join(values.cache, 'budget.json'),
});
for (const tenant of chosen) {
  try {
    const summary = await buildStaticTenant({
      tenant,
      tenantsFile: values.tenants,
      serverDir,
      outRoot: values.out,
      cacheRoot: values.cache,
      freshSeconds,
      budget,
      status,
    });
    if (interactive) process.stdout.write('\r\x1b[K');
    console.log(describeSummary(summary));
    summaries.push(summary);
  } catch (error) {
    if (interactive) process.stdout.write('\r\x1b[K');
    if (error instanceof StaticBuildError) fail(error.message);
    throw error;
  }
}
if (values['summary-json'])
  writeFileSync(values['summary-json'], JSON.stringify(summaries, null, 2));
