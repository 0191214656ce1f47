/**
 * `node bench/fifty-first.ts [--skip-build]` (issue 35, bench/tenants.md "Adding the 51st site"):
 * one `npm start` serving fifty tenants from `TENANTS_FILE` with their read tokens in
 * `SECRETS_FILE` (`.env` lines); then, as an operator would, one entry appended to the tenants file
 * and one line to the secrets file, with the server running. Prints how long until the new site
 * answers, the log lines the server wrote about it, and whether its reads carry its token. Not a
 * test: the steps and what they showed.
 */
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import build from '../tests/deploy/build.ts';
import { send } from '../tests/deploy/http.ts';
import { METRICS_TOKEN, startDocumentedMock, startSite } from '../tests/deploy/stack.ts';
import { startTenantProxy, tenantsFile } from './origin-tenants.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
if (!process.argv.includes('--skip-build')) build();

const demo = JSON.parse(
  readFileSync(new URL('../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as { password: string; publishing: Record<string, { reader: { email: string } }> };

const mock = await startDocumentedMock();
const proxy = await startTenantProxy(mock.publishingUrl);
const signIn = await send(`${mock.publishingUrl}/auth/login`, {
  method: 'POST',
  headers: { 'X-Tenant': 'daily-planet', 'Content-Type': 'application/json' },
  body: JSON.stringify({
    email: demo.publishing['daily-planet']!.reader.email,
    password: demo.password,
  }),
});
const token = (JSON.parse(signIn.text) as { data: { token: string } }).data.token;

const dir = mkdtempSync(join(tmpdir(), 'masthead-fifty-first-'));
const tenantsPath = join(dir, 'tenants.json');
const secretsPath = join(dir, 'secrets.env');
const shipped = readFileSync(new URL('../tenants.json', import.meta.url), 'utf8');
const fifty = JSON.parse(tenantsFile(shipped, 50)) as { tenants: Record<string, unknown>[] };
writeFileSync(tenantsPath, `${JSON.stringify(fifty, null, 2)}\n`);
const secretLine = (n: number) => `t${n}__PUBLISHING_READ_TOKEN=${token}\n`;
writeFileSync(secretsPath, Array.from({ length: 50 }, (_, n) => secretLine(n)).join(''));
chmodSync(secretsPath, 0o600);

const site = await startSite({
  mock,
  env: {
    TENANTS_FILE: tenantsPath,
    SECRETS_FILE: secretsPath,
    PUBLISHING_BASE_URL: proxy.url,
    UPSTREAM_CACHE_DIR: '',
  },
});
const home = (n: number) =>
  send(`http://127.0.0.1:${site.port}/`, { host: `t${n}.localhost` }).catch(() => undefined);

try {
  console.log('t0 before:', (await home(0))?.status, '· t50 before:', (await home(50))?.status);
  const printedBefore = site.printed.length;

  // What the operator writes: one entry in tenants.json…
  const entry = { ...fifty.tenants[0]!, id: 't50', name: 'Tenant 50', hosts: ['t50.localhost'] };
  writeFileSync(
    tenantsPath,
    `${JSON.stringify({ ...fifty, tenants: [...fifty.tenants, entry] }, null, 2)}\n`,
  );
  // …and one line in the secrets file.
  appendFileSync(secretsPath, secretLine(50));
  const added = Date.now();

  let status: number | undefined;
  while (Date.now() - added < 30_000) {
    status = (await home(50))?.status;
    if (status === 200) break;
    await pause(250);
  }
  console.log(`t50 answered ${status} after ${((Date.now() - added) / 1000).toFixed(1)} s`);
  // The secrets file is looked at on lookups, at most every 2 s: a read a few seconds later.
  await pause(3000);
  await send(`http://127.0.0.1:${site.port}/tags`, { host: 't50.localhost' });
  await pause(500);
  const lines = site.printed
    .slice(printedBefore)
    .split('\n')
    .filter((line) => /tenants\.|secrets\.|Secrets/.test(line));
  console.log('log lines after the change:\n', lines.join('\n'));
  // Which budget t50's reads spend: its own token's (216 a minute), or the shared anonymous one.
  const metrics = await send(`http://127.0.0.1:${site.port}/_metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  console.log(
    metrics.text
      .split('\n')
      .filter((line) => line.includes('budget_remaining') && line.includes('tenant="t50"'))
      .join('\n'),
  );
} finally {
  await site.stop();
  await proxy.close();
  await mock.close();
}
