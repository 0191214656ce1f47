import { describe, expect, it } from 'vitest';
import { checkHealth, healthResponse } from '../../../src/lib/delivery/health.ts';

const valid = () => ({ tenants: [] });
const invalid = () => {
  throw new Error('Invalid tenants.json');
};
const answers = () => Promise.resolve();
const away = () => Promise.reject(new Error('connect ECONNREFUSED'));

describe('checkHealth', () => {
  it.each([
    ['valid config, no shared store', valid, undefined, answers, 200, 'not configured'],
    ['valid config, store answers', valid, 'redis://r:6379', answers, 200, 'ok'],
    ['valid config, store away', valid, 'redis://r:6379', away, 503, 'unavailable'],
    ['invalid config', invalid, undefined, answers, 503, 'not configured'],
  ] as const)('%s → %d', async (_label, readConfig, redisUrl, pingStore, status, store) => {
    const response = healthResponse(await checkHealth({ readConfig, redisUrl, pingStore }));
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ sharedStore: store });
  });
});
