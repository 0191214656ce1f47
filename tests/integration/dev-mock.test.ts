import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { mockAddress, mockApiUrls, probeMock, siteOverrides } from '../../scripts/dev-mock.ts';

// `npm run dev` and the mock: it looks where MOCK_*_PORT say, reuses only the real mock, and stops
// with a message when another program holds the port (it used to serve 503 on every page).

let foreign: Server;
let foreignPort = 0;

beforeAll(async () => {
  foreign = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html', Server: 'someone-else' });
    res.end('<h1>another program</h1>');
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignPort = (foreign.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => foreign.close(() => resolve())));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('mockAddress', () => {
  it('reads the MOCK_* variables as the mock does, defaults where unset', () => {
    expect(mockAddress({})).toEqual({
      host: '127.0.0.1',
      control: 4009,
      publishing: 4010,
      lodging: 4020,
    });
    expect(
      mockAddress({
        MOCK_HOST: '0.0.0.0',
        MOCK_CONTROL_PORT: '5009',
        MOCK_PUBLISHING_PORT: '5010',
        MOCK_LODGING_PORT: '5020',
      }),
    ).toEqual({ host: '127.0.0.1', control: 5009, publishing: 5010, lodging: 5020 });
    expect(() => mockAddress({ MOCK_CONTROL_PORT: 'abc' })).toThrow(/MOCK_CONTROL_PORT=abc/);
  });
});

describe('probeMock', () => {
  it('tells the contract mock, another program and a free port apart', async () => {
    const mock = await startMock({ publishingPort: 0, lodgingPort: 0, controlPort: 0 });
    try {
      expect(await probeMock(mock.controlUrl)).toEqual({
        kind: 'mock',
        publishingUrl: mock.publishingUrl,
        lodgingUrl: mock.lodgingUrl,
      });
    } finally {
      await mock.close();
    }
    expect(await probeMock(`http://127.0.0.1:${foreignPort}`)).toEqual({
      kind: 'foreign',
      detail: 'HTTP 200, text/html, server someone-else',
    });
    expect(await probeMock(`http://127.0.0.1:${await freePort()}`)).toEqual({ kind: 'none' });
  });
});

describe('siteOverrides', () => {
  it('points the site at a mock off the default ports, unless the developer chose addresses', () => {
    const moved = mockApiUrls(mockAddress({ MOCK_PUBLISHING_PORT: '5010' }));
    expect(siteOverrides(moved, {})).toEqual({
      PUBLISHING_BASE_URL: 'http://127.0.0.1:5010/api/v1',
    });
    expect(siteOverrides(moved, { PUBLISHING_BASE_URL: 'https://staging.example/api/v1' })).toEqual(
      {},
    );
    expect(siteOverrides(mockApiUrls(mockAddress({})), {})).toEqual({});
  });
});

describe('npm run dev with another program on the control port', () => {
  it('says so and stops, starting neither the mock nor astro', async () => {
    const child = spawn(process.execPath, ['scripts/dev.mjs'], {
      env: {
        ...process.env,
        MOCK_CONTROL_PORT: String(foreignPort),
        MOCK_PUBLISHING_PORT: String(await freePort()),
        MOCK_LODGING_PORT: String(await freePort()),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(
      `http://127.0.0.1:${foreignPort} answers, but it is not the contract mock`,
    );
    expect(output).toContain('server someone-else');
    expect(output).not.toMatch(/astro|contract mock \(dialect/i);
  }, 30_000);
});
