// Dev and e2e only: fills each tenant's lodging token env var from the mock's demo accounts, unless already set.
import { existsSync, readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);

/** @returns {Record<string, string>} env vars to add for running the site against the contract mock */
export function demoEnv(env = process.env) {
  const accountsFile = new URL('mock/demo-accounts.json', root);
  if (!existsSync(accountsFile)) return {};
  const accounts = JSON.parse(readFileSync(accountsFile, 'utf8'));
  const { tenants } = JSON.parse(readFileSync(new URL('tenants.json', root), 'utf8'));
  /** @type {Record<string, string>} */
  const extra = {};
  for (const tenant of tenants) {
    const lodging = tenant.lodging;
    if (!lodging?.tokenEnv || env[lodging.tokenEnv]) continue;
    const account = Object.values(accounts.lodging ?? {}).find((candidate) =>
      lodging.propertyIds.some((id) => candidate.propertyIds?.includes(id)),
    );
    if (account?.fullToken) extra[lodging.tokenEnv] = account.fullToken;
  }
  return extra;
}
