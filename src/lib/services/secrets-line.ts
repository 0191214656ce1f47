import { logInfo, logWarn } from '../log/log.ts';
import { onSecretsChange, reloadSecrets, secretsSource, tenantSecrets } from '../secrets/site.ts';
import { secretsSummary } from '../secrets/summary.ts';
import { getTenants, onTenantsChange } from '../tenants/registry.ts';
import { onHangup } from '../settings/watched-file.ts';
import { siteUpstream } from './clients.ts';

let said = false;

/** The one line saying which tenants lack which secret (./secrets/summary.ts). */
export function logSecretsLine(): void {
  const { level, message } = secretsSummary(
    getTenants(),
    tenantSecrets,
    siteUpstream(),
    secretsSource(),
  );
  (level === 'warn' ? logWarn : logInfo)('tenants.secrets', { message });
}

/** `logSecretsLine` once per process (`astro dev` says it on its first request). */
export function logSecretsLineOnce(): void {
  if (said) return;
  said = true;
  logSecretsLine();
}

/**
 * The built server: `SIGHUP` reads the secrets file again (it is also looked at lazily when it
 * changes), and each reload of secrets or tenants says the line again, so an operator sees a new
 * tenant's secret arrive (or learns which one it still lacks).
 */
export function watchSecrets(): () => void {
  const stops = [
    onHangup(reloadSecrets),
    onSecretsChange(logSecretsLine),
    onTenantsChange(logSecretsLine),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
