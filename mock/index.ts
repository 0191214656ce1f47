import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createControlApp } from './control/app.ts';
import { envDialect, type Dialect } from './lib/dialect.ts';
import { envMedia, type MediaMode } from './lib/media-mode.ts';
import { FaultPatchSchema, mergeDefined, type Service } from './lib/faults.ts';
import { DEFAULT_LIMITS, type LimitWindow, type Limits } from './lib/ratelimit.ts';
import { createLodgingApp } from './lodging/app.ts';
import { createPublishingApp } from './publishing/app.ts';
import { createState, type MockState } from './state.ts';

export type MockOptions = {
  publishingPort?: number;
  lodgingPort?: number;
  controlPort?: number;
  host?: string;
  seed?: number;
  limits?: Partial<Limits>;
  postsPerTenant?: number;
  /** `default` or `alt` (docs/api-assumptions.md, "Dialects"); env `MOCK_DIALECT`. */
  dialect?: Dialect;
  /** `svg` placeholders or camera-size `photos` (mock/README.md); env `MOCK_MEDIA`. */
  media?: MediaMode;
};

export type MockHandle = {
  /** Publishing API base, e.g. `http://127.0.0.1:4010/api/v1`. */
  publishingUrl: string;
  /** Lodging API base, e.g. `http://127.0.0.1:4020/api/v1`. */
  lodgingUrl: string;
  /** Control server origin, e.g. `http://127.0.0.1:4009`. */
  controlUrl: string;
  close(): Promise<void>;
  state: MockState;
};

/** `MOCK_LIMIT_WINDOW`: `fixed` or `sliding`; anything else refuses to start. */
function envWindow(): LimitWindow | undefined {
  const v = process.env['MOCK_LIMIT_WINDOW']?.trim();
  if (!v) return undefined;
  if (v === 'fixed' || v === 'sliding') return v;
  throw new Error(`MOCK_LIMIT_WINDOW must be "fixed" or "sliding", not "${v}"`);
}

const env = (name: string): number | undefined => {
  const v = process.env[name];
  return v === undefined || v.trim() === '' ? undefined : Number(v);
};

/** `MOCK_FAULTS`: one `{ service, … }` patch, an array of them, or `{ publishing: {…}, lodging: {…} }`. */
function envFaults(state: MockState): void {
  const raw = process.env['MOCK_FAULTS'];
  if (!raw) return;
  const parsed: unknown = JSON.parse(raw);
  const list = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && !('service' in parsed)
      ? Object.entries(parsed).map(([service, f]) => ({ ...(f as object), service }))
      : [parsed];
  for (const item of list) {
    const { service, ...patch } = FaultPatchSchema.parse(item);
    state.faults[service] = mergeDefined(state.faults[service], patch);
  }
}

type Listener = { server: ReturnType<typeof createAdaptorServer>; port: number; up: boolean };

type App = { fetch: Parameters<typeof createAdaptorServer>[0]['fetch'] };

async function listen(app: App, port: number, host: string): Promise<Listener> {
  const server = createAdaptorServer({ fetch: app.fetch });
  server.listen(port, host);
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, up: true };
}

async function shut(l: Listener): Promise<void> {
  if (!l.up) return;
  l.up = false;
  const closed = once(l.server, 'close');
  l.server.close();
  if ('closeAllConnections' in l.server) l.server.closeAllConnections();
  await closed;
}

/** Starts the publishing, lodging and control servers; port 0 picks a free port. */
export async function startMock(options: MockOptions = {}): Promise<MockHandle> {
  const host = options.host ?? process.env['MOCK_HOST'] ?? '127.0.0.1';
  const urlHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const limits: Limits = {
    publicPerMinute:
      options.limits?.publicPerMinute ?? env('MOCK_LIMIT_PUBLIC') ?? DEFAULT_LIMITS.publicPerMinute,
    tokenPerMinute:
      options.limits?.tokenPerMinute ?? env('MOCK_LIMIT_TOKEN') ?? DEFAULT_LIMITS.tokenPerMinute,
    lodgingPerMinute:
      options.limits?.lodgingPerMinute ??
      env('MOCK_LIMIT_LODGING') ??
      DEFAULT_LIMITS.lodgingPerMinute,
    window: options.limits?.window ?? envWindow() ?? DEFAULT_LIMITS.window,
    windowSeconds:
      options.limits?.windowSeconds ??
      env('MOCK_LIMIT_WINDOW_SECONDS') ??
      DEFAULT_LIMITS.windowSeconds,
  };
  const state = createState(
    options.seed ?? env('MOCK_SEED') ?? 42,
    options.postsPerTenant ?? env('MOCK_POSTS') ?? 120,
    limits,
    options.dialect ?? envDialect() ?? 'default',
    options.media ?? envMedia() ?? 'svg',
  );
  envFaults(state);

  const publishingApp = createPublishingApp(state);
  const lodgingApp = createLodgingApp(state);
  const listeners: Partial<Record<Service, Listener>> = {};
  const ports = {
    publishing: options.publishingPort ?? env('MOCK_PUBLISHING_PORT') ?? 4010,
    lodging: options.lodgingPort ?? env('MOCK_LODGING_PORT') ?? 4020,
  };
  const apps = { publishing: publishingApp, lodging: lodgingApp };
  let queue = Promise.resolve();

  /** Serialised so rapid down/up toggles never race on one port. */
  const setDown = (service: Service, down: boolean): Promise<void> => {
    queue = queue.then(async () => {
      const l = listeners[service];
      if (!l) return;
      if (down) await shut(l);
      else if (!l.up) listeners[service] = await listen(apps[service], l.port, host);
    });
    return queue;
  };

  listeners.publishing = await listen(publishingApp, ports.publishing, host);
  listeners.lodging = await listen(lodgingApp, ports.lodging, host);
  const control = await listen(
    createControlApp(state, setDown),
    options.controlPort ?? env('MOCK_CONTROL_PORT') ?? 4009,
    host,
  );

  state.origins = {
    publishing: `http://${urlHost}:${listeners.publishing.port}`,
    lodging: `http://${urlHost}:${listeners.lodging.port}`,
    control: `http://${urlHost}:${control.port}`,
  };
  // Faults from MOCK_FAULTS may start a service down.
  await setDown('publishing', state.faults.publishing.down);
  await setDown('lodging', state.faults.lodging.down);

  return {
    publishingUrl: `${state.origins.publishing}/api/v1`,
    lodgingUrl: `${state.origins.lodging}/api/v1`,
    controlUrl: state.origins.control,
    state,
    async close() {
      await queue;
      const all = [listeners.publishing, listeners.lodging, control];
      await Promise.all(all.filter((l) => l !== undefined).map(shut));
    },
  };
}
