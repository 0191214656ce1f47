import { baseNow } from './lib/dates.ts';
import type { Dialect } from './lib/dialect.ts';
import type { MediaMode } from './lib/media-mode.ts';
import { noFaults, type Faults, type Service } from './lib/faults.ts';
import { createRng, type Rng } from './lib/prng.ts';
import { createLimiter, type Limiter, type Limits } from './lib/ratelimit.ts';
import { emptyStats, type ServiceStats, type TenantStats } from './lib/stats.ts';
import type { LodgingData } from './lodging/model.ts';
import type { PublishingData } from './publishing/model.ts';
import { seedLodging } from './seed/lodging.ts';
import { seedPublishing } from './seed/publishing.ts';

/** Everything the mock holds at run time; `POST /reset` rebuilds it in place. */
export type MockState = {
  seed: number;
  postsPerTenant: number;
  /** Read on every request, so `POST /dialect` switches a running mock. */
  dialect: Dialect;
  /** `svg` placeholders or camera-size `photos` (`MOCK_MEDIA`); fixed for the process. */
  media: MediaMode;
  now: Date;
  publishing: PublishingData;
  lodging: LodgingData;
  limits: Limits;
  initialLimits: Limits;
  limiter: Limiter;
  faults: Record<Service, Faults>;
  stats: Record<Service, ServiceStats>;
  /** Publishing calls per tenant, `GET /posts?per_page=12` style (GET /stats/tenants). */
  tenantStats: TenantStats;
  faultRng: Rng;
  /** Listening origins, e.g. `http://127.0.0.1:4010`; set once the servers listen. */
  origins: { publishing: string; lodging: string; control: string };
};

export function createState(
  seed: number,
  postsPerTenant: number,
  limits: Limits,
  dialect: Dialect = 'default',
  media: MediaMode = 'svg',
): MockState {
  const now = baseNow();
  return {
    seed,
    postsPerTenant,
    dialect,
    media,
    now,
    publishing: seedPublishing(seed, now, postsPerTenant, media),
    lodging: seedLodging(seed, now, dialect),
    limits: { ...limits },
    initialLimits: { ...limits },
    limiter: createLimiter(),
    faults: { publishing: noFaults(), lodging: noFaults() },
    stats: { publishing: emptyStats(), lodging: emptyStats() },
    tenantStats: {},
    faultRng: createRng(seed),
    origins: { publishing: '', lodging: '', control: '' },
  };
}

/**
 * Reseeds data (for `dialect`, the current one unless given), drops run-time tokens, counters,
 * limit and fault changes; keeps origins.
 */
export function resetState(state: MockState, dialect: Dialect = state.dialect): void {
  const fresh = createState(
    state.seed,
    state.postsPerTenant,
    state.initialLimits,
    dialect,
    state.media,
  );
  Object.assign(state, { ...fresh, origins: state.origins });
}
