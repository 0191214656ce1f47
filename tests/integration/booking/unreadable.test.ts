import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorLines, HARBOUR_VIEW, serviceFor } from './fixture.ts';
import { english } from '../../fixtures/english.ts';

// A lodging API that answers, but with a property this site cannot read (no name, no currency,
// rooms without any capacity): a shape problem, not an outage.
let server: Server;
let baseUrl: string;
let propertyCalls = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith(`/api/v1/properties/${HARBOUR_VIEW}`)) {
      propertyCalls += 1;
      res.end(
        JSON.stringify({
          id: HARBOUR_VIEW,
          title: 'Harbour View Hotel',
          address: { line: '1 Quay Street' },
          rooms: [{ id: 'r1', label: 'Double', beds: 2 }],
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ message: 'Route not found.' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('an unreadable property', () => {
  it('is "not available online" with the tenant’s contact, one error line, and in /_status', async () => {
    const consoleErrors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { service, up, lines } = serviceFor(baseUrl, {
        lodging: { contact: { phone: '+44 20 7946 0000', email: 'rooms@harbour.example' } },
      });
      const attempts = await Promise.all(
        [0, 1, 2].map(() => service.property(HARBOUR_VIEW).catch((e: unknown) => e)),
      );
      const later = await service.properties().catch((e: unknown) => e);
      for (const error of [...attempts, later]) {
        expect(error).toMatchObject({
          status: 503,
          error: {
            code: 'not_online',
            contact: { phone: '+44 20 7946 0000', email: 'rooms@harbour.example' },
          },
        });
        const body = (error as { error: { message: string; retryAfter?: number } }).error;
        expect(english(body.message)).toMatch(/not available online.*\+44 20 7946 0000/);
        expect(english(body.message)).not.toMatch(/try again/i);
        expect(body.retryAfter).toBeUndefined();
      }
      expect(propertyCalls).toBeGreaterThan(0);

      const logged = [...errorLines(lines), ...consoleErrors.mock.calls.map((c) => String(c[0]))];
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/property\.currency/);
      expect(logged[0]).toMatch(/property\.name/);

      const [problem] = up.metrics.getStatus().integrationProblems;
      expect(problem).toMatchObject({
        service: 'lodging',
        tenant: 'harbour-times',
        operation: 'properties.get',
        effect: 'booking not available online',
      });
      expect(problem!.count).toBeGreaterThanOrEqual(4);
    } finally {
      consoleErrors.mockRestore();
    }
  });

  it('without a configured contact still says how to book instead', async () => {
    const { service } = serviceFor(baseUrl);
    const error = await service.property(HARBOUR_VIEW).catch((e: unknown) => e);
    expect(error).toMatchObject({ error: { code: 'not_online' } });
    expect(english((error as { error: { message: string } }).error.message)).toMatch(
      /contact us directly/,
    );
  });
});
