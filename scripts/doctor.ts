// `npm run doctor -- <tenant-id> [--write] [--writes]`: can the site read this tenant's APIs? (README, "Upstream profiles")
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import './check-node.mjs';
import { demoEnv } from './demo-env.mjs';
import { errorMessage } from '../src/lib/content/records.ts';
import { listStaticFiles } from '../src/lib/delivery/static-files.ts';
import { runDoctor } from '../src/lib/profiles/doctor/run.ts';
import { doctorLines } from '../src/lib/profiles/doctor/lines.ts';
import { profileWrites, withProfileNamed } from '../src/lib/profiles/doctor/save.ts';
import {
  checkLodgingWrites,
  checkWrites,
  lodgingWriteNotice,
  writeLines,
} from '../src/lib/profiles/doctor/write-checks.ts';
import { readProfileTexts } from '../src/lib/profiles/files.ts';
import { SecretsFileError } from '../src/lib/secrets/schema.ts';
import { tenantSecrets } from '../src/lib/secrets/site.ts';
import { tenantSecretsLine } from '../src/lib/secrets/summary.ts';
import { readSettings } from '../src/lib/settings/settings.ts';
import { readTenantsFile } from '../src/lib/tenants/loader.ts';
import { tenantsFileOptions } from '../src/lib/tenants/upstream-override.ts';
import { parseMaps } from '../src/lib/profiles/doctor/maps.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    write: { type: 'boolean', default: false },
    // Also the subscriber's writes (register a throwaway account, sign in, read it, sign out): never by default.
    writes: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    // Against the contract mock: lodging tokens from its demo accounts, as `npm run dev` fills them.
    demo: { type: 'boolean', default: false },
    // The server's tenants file (TENANTS_FILE), read the same way.
    tenants: { type: 'string', default: readSettings(['TENANTS_FILE']).TENANTS_FILE },
    profiles: { type: 'string', default: 'profiles' },
    // Where the findings are kept for /_status and the server's start-up line.
    findings: { type: 'string', default: '.cache/doctor' },
    // Settles what the doctor could not decide: `--map posts.list.title=headline` (repeatable).
    map: { type: 'string', multiple: true, default: [] },
  },
});

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

/** What `run` gives, or its error's message and exit 2 (a bad argument, file or profile: no stack). */
function orFail<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    return fail(errorMessage(error));
  }
}

const id = positionals[0];
if (!id)
  fail(
    'Usage: npm run doctor -- <tenant-id> [--write] [--writes] [--map <operation>.<need>=<path>]',
  );
const maps = orFail(() => parseMaps(values.map));

// The deployment's overrides of the upstream addresses, as `npm start` applies them.
const overrides = readSettings(['PUBLISHING_BASE_URL', 'LODGING_BASE_URL']);
const { UPSTREAM_TIMEOUT_MS, UPSTREAM_BODY_MAX_BYTES } = readSettings([
  'UPSTREAM_TIMEOUT_MS',
  'UPSTREAM_BODY_MAX_BYTES',
]);
const callSettings = { timeoutMs: UPSTREAM_TIMEOUT_MS, maxBodyBytes: UPSTREAM_BODY_MAX_BYTES };

const load = () =>
  orFail(() => {
    // The logos a build of this checkout could show: its public/ files.
    const publicFiles = new Set(listStaticFiles('public').keys());
    const options = tenantsFileOptions(overrides, readProfileTexts(values.profiles), publicFiles);
    const { text, file } = readTenantsFile(values.tenants, options);
    return { text, tenants: file.tenants };
  });

// `--map` entries are checked on the first run; after --write the profile holds them.
async function check(settle = true) {
  const { text, tenants } = load();
  const index = tenants.findIndex((tenant) => tenant.id === id);
  const tenant = tenants[index];
  if (!tenant)
    fail(`No tenant "${id}" in ${values.tenants} (${tenants.map((t) => t.id).join(', ')})`);
  // SECRETS_FILE first, then the variables tenants.json names (with --demo, the mock's tokens too).
  const env: Record<string, string | undefined> = values.demo
    ? { ...demoEnv(), ...process.env }
    : process.env;
  let secrets;
  try {
    secrets = tenantSecrets(tenant, (name) => (name ? env[name] || undefined : undefined));
  } catch (error) {
    if (error instanceof SecretsFileError) fail(error.message);
    throw error;
  }
  // A broken profile file: its readable message, no stack.
  const report = await runDoctor({
    tenant,
    profiles: readProfileTexts(values.profiles),
    secrets: secrets.values,
    secretsFrom: secrets.from,
    overrides,
    // The deployment's per-call timeout and body cap, as the site's clients use them.
    ...callSettings,
    ...(settle && { maps }),
  }).catch((error: unknown) => fail(errorMessage(error)));
  return { report, tenant, index, text, secrets };
}

const first = await check();
let report = first.report;
const { tenant, index, text } = first;
if (!values.json) console.log(tenantSecretsLine(tenant, first.secrets));
console.log(values.json ? JSON.stringify(report, null, 2) : doctorLines(report).join('\n'));

if (values.write) {
  const writes = profileWrites(report, tenant, readProfileTexts(values.profiles));
  let tenantsText = text;
  for (const write of writes) {
    const file = join(values.profiles, `${write.name}.json`);
    mkdirSync(values.profiles, { recursive: true });
    writeFileSync(file, write.text);
    tenantsText = withProfileNamed(tenantsText, index, write.service, write.name);
    console.log(`Wrote ${file}; ${values.tenants}: ${write.service}.profile = "${write.name}"`);
  }
  if (writes.length > 0) {
    writeFileSync(values.tenants, tenantsText);
    // Check again with what was written: the exit code says whether it is enough.
    ({ report } = await check(false));
    console.log(`\nWith the new profile: ${doctorLines(report).at(-1) ?? ''}`);
  }
}

/** `--writes`: the subscriber's journey, then (a tenant that books) a test stay, said before it starts. */
async function writeChecks() {
  // What --write saved is what the writes go through.
  const now = load().tenants[index] ?? tenant;
  const profiles = readProfileTexts(values.profiles);
  const writes = await checkWrites({ tenant: now, profiles });
  const heading = 'Writes (--writes: a throwaway account was registered on the API):';
  console.log(writeLines(writes, heading).join('\n'));
  if (!now.lodging || !now.features.booking) return writes;
  console.log(`\n${lodgingWriteNotice(now)}`);
  const lodging = await checkLodgingWrites({
    tenant: now,
    profiles,
    secrets: first.secrets.values,
  });
  console.log(writeLines(lodging).join('\n'));
  return [...writes, ...lodging];
}
const writes = values.writes ? await writeChecks() : [];

mkdirSync(values.findings, { recursive: true });
writeFileSync(
  join(values.findings, `${id}.json`),
  `${JSON.stringify(values.writes ? { ...report, writes } : report, null, 2)}\n`,
);
process.exit(report.unmapped.length + report.toFix.length > 0 || writes.some((w) => !w.ok) ? 1 : 0);
