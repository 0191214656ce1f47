import type { APIContext } from 'astro';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { imagePath } from '../../../src/lib/images/address.ts';
import { imageRoute } from '../../../src/lib/images/route.ts';
import { imageSecret } from '../../../src/lib/images/shared-pipeline.ts';
import { redirectLogLines } from '../../../src/lib/log/log.ts';
import {
  ForbiddenError,
  NotFoundError,
  UpstreamServerError,
} from '../../../src/lib/upstream/errors.ts';

// A subscriber's e-paper page picture when the edition cannot be read: only an outage says
// "try again shortly"; our own bug or a refusal is logged, not promised to pass.
const failure = vi.hoisted(() => ({ error: new Error() }));
vi.mock('../../../src/lib/auth/session.ts', () => ({
  getSignedIn: () => Promise.resolve({ token: 't', user: {} }),
}));
vi.mock('../../../src/lib/epaper/load.ts', () => ({
  loadReader: () => Promise.reject(failure.error),
}));

const lines: string[] = [];
redirectLogLines((line) => lines.push(line));
afterEach(() => void (lines.length = 0));

const context = { service: 'publishing', operation: 'getEdition' } as const;

async function page(error: Error): Promise<Response> {
  failure.error = error;
  const path = imagePath(imageSecret(), {
    target: { kind: 'edition-page', edition: 'monday', page: 1 },
    width: 480,
    format: 'webp',
  });
  const url = `http://daily-planet.localhost${path}`;
  const tenant = { id: 'daily-planet', publishing: { baseUrl: 'http://api.invalid/api/v1' } };
  return imageRoute({
    locals: { tenantMatchOrNull: { tenant } },
    session: {},
    url: new URL(url),
    request: new Request(url),
  } as unknown as APIContext);
}

describe("a subscriber's page picture when the edition cannot be read", () => {
  it('an unknown edition: 404', async () => {
    expect((await page(new NotFoundError('gone', { ...context, status: 404 }))).status).toBe(404);
  });

  it('the API down: 503 with the wait it said', async () => {
    const response = await page(new UpstreamServerError('down', { ...context, status: 503 }, 120));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('120');
  });

  it.each([
    ['our own bug', new TypeError("Cannot read properties of undefined (reading 'pages')")],
    ['a 403 from the API', new ForbiddenError('refused', { ...context, status: 403 })],
  ])('%s: no "try again shortly", and logged', async (_label, error) => {
    const response = await page(error);
    expect(response.status).not.toBe(503);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(response.headers.get('x-image-error')).not.toMatch(/try again/);
    expect(lines.join('\n')).toContain('images.failed');
  });

  it('our own bug is a 500 logged with its stack; the API’s refusal stays the gateway’s 502', async () => {
    const bug = await page(new TypeError("Cannot read properties of undefined (reading 'pages')"));
    expect(bug.status).toBe(500);
    expect(lines.join('\n')).toMatch(/"stack":"TypeError: Cannot read properties/);
    const refused = await page(new ForbiddenError('refused', { ...context, status: 403 }));
    expect(refused.status).toBe(502);
  });
});
