import { Hono } from 'hono';
import { z } from 'zod';
import { DialectSchema } from '../lib/dialect.ts';
import { FaultPatchSchema, mergeDefined, noFaults, SERVICES, type Service } from '../lib/faults.ts';
import { notFound, readBody } from '../lib/http.ts';
import { createLimiter } from '../lib/ratelimit.ts';
import { emptyStats } from '../lib/stats.ts';
import { resetState, type MockState } from '../state.ts';
import { streamControlRoutes } from './streams.ts';

/** Body of `POST /limits`: requests per window (0 disables a limit), how and how long it counts. */
export const LimitsPatchSchema = z.object({
  publicPerMinute: z.number().int().min(0).optional(),
  tokenPerMinute: z.number().int().min(0).optional(),
  lodgingPerMinute: z.number().int().min(0).optional(),
  window: z.enum(['fixed', 'sliding']).optional(),
  windowSeconds: z.number().int().min(1).optional(),
});

const DialectBodySchema = z.object({ dialect: DialectSchema });
/** `POST /reset` may switch the dialect too; without one the current dialect stays. */
const ResetSchema = z.object({ dialect: DialectSchema.optional() });

/** Opens or closes a service's listener (fault `down`). */
export type SetDown = (service: Service, down: boolean) => Promise<void>;

const bad = (error: z.ZodError) => ({ message: 'Invalid control request.', issues: error.issues });

/** Test-harness API: faults, limits, reset and call statistics. */
export function createControlApp(state: MockState, setDown: SetDown): Hono {
  const app = new Hono();
  app.notFound((c) => notFound(c));
  const faults = () => state.faults;
  const syncDown = () => Promise.all(SERVICES.map((s) => setDown(s, state.faults[s].down)));

  app.get('/', (c) =>
    c.json({
      publishingUrl: `${state.origins.publishing}/api/v1`,
      lodgingUrl: `${state.origins.lodging}/api/v1`,
      seed: state.seed,
      dialect: state.dialect,
      postsPerTenant: state.postsPerTenant,
      limits: state.limits,
      faults: faults(),
    }),
  );

  app.get('/faults', (c) => c.json(faults()));

  app.post('/faults', async (c) => {
    const input = FaultPatchSchema.safeParse(await readBody(c));
    if (!input.success) return c.json(bad(input.error), 422);
    const { service, ...patch } = input.data;
    state.faults[service] = mergeDefined(state.faults[service], patch);
    await syncDown();
    return c.json(faults());
  });

  app.delete('/faults', async (c) => {
    state.faults = { publishing: noFaults(), lodging: noFaults() };
    await syncDown();
    return c.json(faults());
  });

  app.get('/limits', (c) => c.json(state.limits));

  app.post('/limits', async (c) => {
    const input = LimitsPatchSchema.safeParse(await readBody(c));
    if (!input.success) return c.json(bad(input.error), 422);
    state.limits = mergeDefined(state.limits, input.data);
    state.limiter = createLimiter(); // new limits start from fresh windows
    return c.json(state.limits);
  });

  app.post('/reset', async (c) => {
    const input = ResetSchema.safeParse(await readBody(c));
    if (!input.success) return c.json(bad(input.error), 422);
    resetState(state, input.data.dialect);
    await syncDown();
    return c.json({
      message: 'Mock reset.',
      seed: state.seed,
      dialect: state.dialect,
      limits: state.limits,
    });
  });

  app.get('/dialect', (c) => c.json({ dialect: state.dialect }));

  // Switching reseeds: the alt dialect's data differs (currencies, rates, statuses).
  app.post('/dialect', async (c) => {
    const input = DialectBodySchema.safeParse(await readBody(c));
    if (!input.success) return c.json(bad(input.error), 422);
    resetState(state, input.data.dialect);
    await syncDown();
    return c.json({ dialect: state.dialect });
  });

  streamControlRoutes(app, state);

  app.get('/stats', (c) => c.json(state.stats));

  app.get('/stats/tenants', (c) => c.json(state.tenantStats));

  app.delete('/stats', (c) => {
    state.stats = { publishing: emptyStats(), lodging: emptyStats() };
    state.tenantStats = {};
    return c.json(state.stats);
  });

  return app;
}
