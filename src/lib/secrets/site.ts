import { logError, logInfo, logWarn } from '../log/log.ts';
import { namedSecret, readSettings } from '../settings/settings.ts';
import { openSecretsFile, type SecretsFile, type SecretsFileEvent } from './file.ts';
import { resolveTenantSecrets, type SecretTenant, type TenantSecrets } from './tenant.ts';

/**
 * This process's secrets: the file `SECRETS_FILE` names (opened on first use, looked at again
 * lazily and on `reloadSecrets()`), then the variables. Every lookup resolves afresh, so a secret
 * added to the file reaches the next request without a restart, whatever tenant registry asks.
 */

let file: SecretsFile | null | undefined;
// Only its own settings: `/_health` asks for secrets while another setting may be invalid.
const own = () => readSettings(['SECRETS_FILE', 'PURGE_SECRETS']);
let purgePairs: ReadonlyMap<string, string> | undefined;

function logFileEvent(path: string, event: SecretsFileEvent): void {
  if (event.kind === 'loaded') logInfo('secrets.loaded', { file: path, tenants: event.tenants });
  else if (event.kind === 'refused')
    logError('secrets.refused', { file: path, message: event.reason });
  else
    logWarn('secrets.file.group_readable', {
      file: path,
      mode: event.mode,
      message: `${path} is readable by its group (mode ${event.mode}): every member of it can read every tenant's secrets (fine when the group is this server's alone, as a Kubernetes fsGroup)`,
    });
}

/** The open secrets file, or undefined without `SECRETS_FILE`; throws `SecretsFileError` at start. */
export function siteSecretsFile(): SecretsFile | undefined {
  if (file === undefined) {
    const path = own().SECRETS_FILE;
    file = path ? openSecretsFile({ path, report: (event) => logFileEvent(path, event) }) : null;
  }
  return file ?? undefined;
}

/** Where this process reads secrets from, for its lines: `SECRETS_FILE <path> and variables`. */
export function secretsSource(): string {
  const path = own().SECRETS_FILE;
  return path ? `SECRETS_FILE ${path}, then variables` : 'variables, no SECRETS_FILE';
}

/** The tenant's secrets now (file first, then variables; ./tenant.ts). */
export function tenantSecrets(
  tenant: SecretTenant,
  variable: (name: string | undefined) => string | undefined = namedSecret,
): TenantSecrets {
  const secrets = siteSecretsFile()?.current();
  purgePairs ??= own().PURGE_SECRETS ?? new Map();
  return resolveTenantSecrets(tenant, {
    file: (id) => secrets?.get(id),
    variable,
    purgeSecrets: purgePairs,
  });
}

/** Reads the secrets file again now (SIGHUP); false when it was refused or there is none. */
export function reloadSecrets(): boolean {
  return siteSecretsFile()?.reload() ?? false;
}

/** Runs `listener` after each reload of the secrets file; returns a function that stops it. */
export function onSecretsChange(listener: () => void): () => void {
  return siteSecretsFile()?.onChange(listener) ?? (() => undefined);
}

/** Forgets the open file (tests that change `SECRETS_FILE`). */
export function forgetSiteSecrets(): void {
  file = undefined;
  purgePairs = undefined;
}
