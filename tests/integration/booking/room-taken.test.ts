import { createServer, request as forward, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryOf } from '../../../src/lib/booking/steps/flow.ts';
import { english } from '../../fixtures/english.ts';
import { request, serviceFor, startDialect, type Mock } from './fixture.ts';

// A lodging API that answers a booking with 409 (the room was just taken: the contract names no
// such status, yet many booking APIs answer so), everything else as the contract mock does.
let mock: Mock;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  mock = await startDialect('default');
  const upstream = new URL(mock.lodgingUrl);
  server = createServer((req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/api/v1/bookings')) {
      req.resume();
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'The room is no longer available.' }));
      return;
    }
    const options = {
      host: upstream.hostname,
      port: upstream.port,
      path: req.url,
      method: req.method,
    };
    const out = forward({ ...options, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await mock.close();
});

describe('a room taken between the review and Book (the lodging API answers 409)', () => {
  it('sends the guest to choose another room, with no "try again" that can only fail', async () => {
    const { service } = serviceFor(baseUrl);
    const failure = await service.book(request(), {}).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 422, error: { code: 'validation' } });
    const { error } = failure as { error: { fields?: Record<string, string[]> } } & Parameters<
      typeof retryOf
    >[0];
    expect(english(error.fields)).toEqual({
      roomTypeId: ['This room is no longer free for these dates. Please choose another.'],
    });
    expect(retryOf(failure as Parameters<typeof retryOf>[0]).retry).toBe(false);
  });
});
