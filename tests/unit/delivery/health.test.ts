import { describe, expect, it } from 'vitest';
import { checkHealth, healthResponse } from '../../../src/lib/delivery/health.ts';

const lodging = {
  baseUrl: 'https://lodging.example/api/v1',
  tokenEnv: 'HARBOUR_LODGING_TOKEN',
  propertyIds: ['f288dd17-9e1e-5421-8b43-5674c8a96975'],
  allowedEmbedOrigins: [],
  minNights: 1,
  maxNights: 21,
  fields: {},
};
const valid = () => [{ lodging: undefined }];
const invalid = () => {
  throw new Error('Invalid tenants.json');
};
const answers = () => Promise.resolve();
const away = () => Promise.reject(new Error('connect ECONNREFUSED'));

describe('checkHealth', () => {
  it.each([
    ['valid config, no shared store', valid, undefined, answers, 200, 'ok', 'not configured'],
    ['valid config, store answers', valid, 'redis://r:6379', answers, 200, 'ok', 'ok'],
    ['valid config, store away', valid, 'redis://r:6379', away, 200, 'degraded', 'unavailable'],
    ['invalid config', invalid, undefined, answers, 503, 'failing', 'not configured'],
    ['invalid config, store away', invalid, 'redis://r:6379', away, 503, 'failing', 'unavailable'],
  ] as const)('%s → %d', async (_label, readConfig, redisUrl, pingStore, status, word, store) => {
    const response = healthResponse(
      await checkHealth({ readConfig, redisUrl, pingStore, credentials: () => ({}) }),
    );
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ status: word, sharedStore: store });
  });
});

describe('checkHealth, lodging credentials', () => {
  it.each([
    ['the token is set', { token: '2|abc' }, 'ok'],
    ['e-mail and password are set', { email: 'm@x.test', password: 'p' }, 'ok'],
    ['nothing is set', {}, 'invalid'],
    ['only the e-mail is set', { email: 'm@x.test' }, 'invalid'],
  ] as const)('%s → config %s', async (_label, credentials, config) => {
    const tenant = {
      lodging: { ...lodging, emailEnv: 'LODGE_EMAIL', passwordEnv: 'LODGE_PASSWORD' },
    };
    const health = await checkHealth({
      readConfig: () => [tenant],
      redisUrl: undefined,
      credentials: () => credentials,
    });
    expect(health.checks.config).toBe(config);
    expect(health.ok).toBe(config === 'ok');
  });
});

describe('checkHealth, settings', () => {
  const timeout = {
    name: 'UPSTREAM_TIMEOUT_MS',
    expected: 'a number greater than 0',
    given: 'abc',
  };

  it('answers 503 naming the invalid setting and its rule, without the value', async () => {
    const response = healthResponse(
      await checkHealth({
        settings: () => [timeout],
        readConfig: valid,
        redisUrl: undefined,
        credentials: () => ({}),
      }),
    );
    expect(response.status).toBe(503);
    const body = (await response.json()) as Record<string, string>;
    expect(body).toMatchObject({ status: 'failing', settings: 'invalid', config: 'ok' });
    expect(body['reason']).toBe(
      'Invalid settings: UPSTREAM_TIMEOUT_MS must be a number greater than 0',
    );
  });

  it('answers 200 without a reason when every setting fits', async () => {
    const response = healthResponse(
      await checkHealth({
        settings: () => [],
        readConfig: valid,
        redisUrl: undefined,
        credentials: () => ({}),
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      settings: 'ok',
      config: 'ok',
      sharedStore: 'not configured',
    });
  });
});
