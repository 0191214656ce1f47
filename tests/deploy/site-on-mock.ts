import { afterAll, beforeAll } from 'vitest';
import { send } from './http.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startSite, type Mock } from './stack.ts';

/**
 * One documented mock and one `npm start` on it for a test file: started before its tests, stopped
 * after. `env` may name the mock's address (`(mock) => ({ … })`). `get` asks the site as `tenant`.
 */
export function siteOnMock(
  env: Record<string, string> | ((mock: Mock) => Record<string, string>),
  tenant = 'daily-planet',
) {
  let mock: Mock | undefined;
  let site: Service | undefined;
  beforeAll(async () => {
    mock = await startDocumentedMock();
    site = await startSite({ mock, env: typeof env === 'function' ? env(mock) : env });
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
    await mock?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('siteOnMock: used before its beforeAll ran');
    return value;
  };
  return {
    tenant,
    mock: () => started(mock),
    site: () => started(site),
    get: (path: string) =>
      send(`http://127.0.0.1:${started(site).port}${path}`, { host: `${tenant}.localhost` }),
  };
}
