// `npm run dev`'s view of the contract mock: where it listens (the same MOCK_* variables as
// mock/index.ts) and whether what answers there is the mock, another program, or nothing.

/** The ports and host the mock uses, read as mock/index.ts reads them. */
export interface MockAddress {
  host: string;
  control: number;
  publishing: number;
  lodging: number;
}

/** The ports `tenants.json`'s demo tenants point at (`publishing.baseUrl`, `lodging.baseUrl`). */
export const DEFAULT_MOCK_PORTS = { control: 4009, publishing: 4010, lodging: 4020 } as const;

type Env = Record<string, string | undefined>;

function port(env: Env, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    throw new Error(`${name}=${value} is not a port (1 to 65535).`);
  }
  return n;
}

export function mockAddress(env: Env = process.env): MockAddress {
  const host = env['MOCK_HOST']?.trim() || '127.0.0.1';
  return {
    // The mock prints 127.0.0.1 in its URLs when it listens on every address.
    host: host === '0.0.0.0' ? '127.0.0.1' : host,
    control: port(env, 'MOCK_CONTROL_PORT', DEFAULT_MOCK_PORTS.control),
    publishing: port(env, 'MOCK_PUBLISHING_PORT', DEFAULT_MOCK_PORTS.publishing),
    lodging: port(env, 'MOCK_LODGING_PORT', DEFAULT_MOCK_PORTS.lodging),
  };
}

export function controlUrl(address: MockAddress): string {
  return `http://${address.host}:${address.control}`;
}

/** The API addresses of a mock started with `address` (as its control server reports them). */
export function mockApiUrls(address: MockAddress): { publishingUrl: string; lodgingUrl: string } {
  return {
    publishingUrl: `http://${address.host}:${address.publishing}/api/v1`,
    lodgingUrl: `http://${address.host}:${address.lodging}/api/v1`,
  };
}

export type MockProbe =
  | { kind: 'none' }
  | { kind: 'mock'; publishingUrl: string; lodgingUrl: string }
  | { kind: 'foreign'; detail: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What answers `GET /` on the control address: nothing (free: start the mock), the contract mock
 * (its answer names its API addresses, `seed` and `dialect`: mock/control/app.ts), or another
 * program, described in a few words for the message that stops `npm run dev`.
 */
export async function probeMock(
  url: string,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = 1000,
): Promise<MockProbe> {
  let response: Response;
  try {
    response = await fetchImpl(`${url}/`, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return { kind: 'none' };
    return { kind: 'foreign', detail: `no HTTP answer (${code ?? String(error)})` };
  }
  const type = response.headers.get('content-type') ?? 'no content type';
  const body: unknown = await response.json().catch(() => undefined);
  if (
    response.ok &&
    isObject(body) &&
    typeof body['publishingUrl'] === 'string' &&
    typeof body['lodgingUrl'] === 'string' &&
    typeof body['seed'] === 'number' &&
    typeof body['dialect'] === 'string'
  ) {
    return { kind: 'mock', publishingUrl: body['publishingUrl'], lodgingUrl: body['lodgingUrl'] };
  }
  const server = response.headers.get('server');
  return {
    kind: 'foreign',
    detail: `HTTP ${response.status}, ${type}${server ? `, server ${server}` : ''}`,
  };
}

/** The message that stops `npm run dev` when another program holds the mock's control port. */
export function foreignMessage(address: MockAddress, detail: string): string {
  const free = (n: number) => n + 100;
  return [
    `[dev] ${controlUrl(address)} answers, but it is not the contract mock (${detail}).`,
    `      Stop that program, or run the mock on free ports, e.g.`,
    `      MOCK_CONTROL_PORT=${free(address.control)} MOCK_PUBLISHING_PORT=${free(address.publishing)} MOCK_LODGING_PORT=${free(address.lodging)} npm run dev`,
    `      (the site is then pointed at them through PUBLISHING_BASE_URL and LODGING_BASE_URL).`,
  ].join('\n');
}

/**
 * The site's settings that point every tenant at this mock, when it is not where `tenants.json`
 * expects it (the default ports); the developer's own PUBLISHING_BASE_URL / LODGING_BASE_URL win.
 */
export function siteOverrides(
  urls: { publishingUrl: string; lodgingUrl: string },
  env: Env = process.env,
): Record<string, string> {
  const defaults = mockApiUrls({ host: '127.0.0.1', ...DEFAULT_MOCK_PORTS });
  const overrides: Record<string, string> = {};
  if (urls.publishingUrl !== defaults.publishingUrl && !env['PUBLISHING_BASE_URL'])
    overrides['PUBLISHING_BASE_URL'] = urls.publishingUrl;
  if (urls.lodgingUrl !== defaults.lodgingUrl && !env['LODGING_BASE_URL'])
    overrides['LODGING_BASE_URL'] = urls.lodgingUrl;
  return overrides;
}
