import { setTimeout as delay } from 'node:timers/promises';
import { settingDefaults } from '../settings/schema.ts';
import { DEFAULT_LIMITS, limitFor } from '../upstream/budget.ts';
import { memoryLog } from '../upstream/sliding-log.ts';
import type { Budget, BudgetKey, BudgetLimits, RateInfo } from '../upstream/budget.ts';

/**
 * A budget for builds: where a page render's budget refuses, it waits for the upstream's next
 * fixed window, anchored on the answer of its first request (never earlier than the upstream's
 * own start), trusting `X-RateLimit-*` over its own count. Not bottleneck (issue 36) nor the
 * site's sliding-log budget: both count on their own clock, not on the upstream's answers. It
 * also never sends more than the limit in any window-long span of its own sends, so an upstream
 * counting by sliding window is not refused at a fixed window's edge (calls late in one window
 * and a burst at the start of the next), nor by a build run again inside the minute of the last
 * one (`logFile`). Like the site's budget it spends `safetyRatio` of each limit only.
 */
export interface PacingBudget extends Budget {
  readonly calls: number;
  /** Wall-clock milliseconds during which at least one request waited for the budget. */
  readonly waitedMs: number;
}

interface PacerOptions {
  limits?: Partial<BudgetLimits> | undefined;
  /** Share of each limit spent (default `UPSTREAM_BUDGET_RATIO`), as the site's budget. */
  safetyRatio?: number | undefined;
  /** Where the sends of the last minute are kept, so the next build counts them too. */
  logFile?: string | undefined;
  /** Added to each window so clock granularity never lands a request in the old one. */
  marginMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface Window {
  /** The upstream's limit, and the share of it we spend. */
  full: number;
  limit: number;
  used: number;
  /** When the current window ends; `null` before its first request. */
  endsAt: number | null;
  /** Highest `remaining` seen in this window: the answer that anchors it. */
  bestRemaining: number;
  blockedUntil: number;
  /**
   * Until the first answer, one request at a time: another process may have spent this window.
   * `undefined` until the first request is sent, `null` once answered.
   */
  firstAnswer: PromiseWithResolvers<void> | null | undefined;
  /** The last take under way: one at a time, so the count and the log agree. */
  turn: Promise<unknown>;
}

const WINDOW_MS = 60_000; // the upstream's: its limits are per minute

/** A window before its first request, and each one after. */
const UNCOUNTED = Object.freeze({ used: 0, endsAt: null, bestRemaining: -1 });

/** Moves a window by an answer's `Retry-After` / `X-RateLimit-*` (`t`: when it came). */
function observeAnswer(w: Window, info: RateInfo, t: number, marginMs: number, ratio: number) {
  w.firstAnswer?.resolve();
  w.firstAnswer = null;
  // A 429 that does not say how long (the contracts do not promise `Retry-After`): a window.
  const retryAfter = info.retryAfterSeconds ?? (info.rateLimited ? WINDOW_MS / 1000 : 0);
  if (retryAfter > 0) {
    w.blockedUntil = t + retryAfter * 1000 + marginMs;
    w.used = w.limit;
    w.endsAt = w.blockedUntil;
    return;
  }
  if (info.limit !== undefined && info.limit > 0) {
    w.full = info.limit;
    w.limit = Math.max(1, Math.floor(info.limit * ratio));
  }
  if (info.remaining === undefined) return;
  // What the upstream counted: the headroom beyond our share stays untouched.
  w.used = Math.max(w.used, w.full - info.remaining);
  if (info.remaining > w.bestRemaining) {
    // The earliest request of the window: the upstream's window began no later than now.
    w.bestRemaining = info.remaining;
    w.endsAt = t + WINDOW_MS + marginMs;
  }
}

export function createPacingBudget(options: PacerOptions = {}): PacingBudget {
  const limits: BudgetLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const ratio = options.safetyRatio ?? settingDefaults.UPSTREAM_BUDGET_RATIO;
  const share = (full: number) => Math.max(1, Math.floor(full * ratio));
  const marginMs = options.marginMs ?? 150;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  // Every call of the last window, whoever sent it: this build or the one before it.
  const log = memoryLog(WINDOW_MS + marginMs, now, options.logFile);
  const windows = new Map<string, Window>();
  let calls = 0;
  let waitedMs = 0;
  let waiters = 0;
  let waitingSince = 0;

  const windowOf = (key: BudgetKey): Window => {
    const id = `${key.kind}|${key.key}`;
    const full = limitFor(limits, key.kind);
    const found = windows.get(id) ?? {
      ...UNCOUNTED,
      full,
      limit: share(full),
      blockedUntil: 0,
      firstAnswer: undefined,
      turn: Promise.resolve(),
    };
    windows.set(id, found);
    return found;
  };

  const wait = async (ms: number): Promise<void> => {
    if (waiters++ === 0) waitingSince = now();
    try {
      await sleep(Math.max(1, ms));
    } finally {
      if (--waiters === 0) waitedMs += now() - waitingSince;
    }
  };

  return {
    limits,
    windowSeconds: WINDOW_MS / 1000,
    get calls() {
      return calls;
    },
    get waitedMs() {
      return waitedMs + (waiters > 0 ? now() - waitingSince : 0);
    },
    take(key) {
      const w = windowOf(key);
      const id = `${key.kind}|${key.key}`;
      const mine = w.turn.then(async () => {
        if (w.firstAnswer === undefined) {
          w.firstAnswer = Promise.withResolvers<void>();
        } else if (w.firstAnswer) {
          // A network error never answers: wait for the probe a few seconds at most.
          await Promise.race([w.firstAnswer.promise, sleep(3000)]);
          w.firstAnswer = null;
        }
        for (;;) {
          const t = now();
          if (w.blockedUntil > t) {
            await wait(w.blockedUntil - t);
            continue;
          }
          if (w.endsAt !== null && t >= w.endsAt) Object.assign(w, UNCOUNTED);
          if (w.used >= w.limit) {
            await wait((w.endsAt ?? t + WINDOW_MS) - t);
            continue;
          }
          // The call `limit` sends back must have left the window (a sliding upstream's count).
          const sent = await log.take(id, w.limit);
          if (!sent.ok) {
            await wait(sent.waitMs);
            continue;
          }
          w.used += 1;
          // Provisional end; the first answer moves it to when the upstream started counting.
          w.endsAt ??= t + WINDOW_MS + marginMs;
          calls += 1;
          return { ok: true as const, remaining: w.limit - w.used };
        }
      });
      w.turn = mine.catch(() => undefined);
      return mine;
    },
    async refund(key) {
      await log.refund(`${key.kind}|${key.key}`);
      const w = windowOf(key);
      w.used = Math.max(0, w.used - 1);
    },
    observe(key, info: RateInfo) {
      observeAnswer(windowOf(key), info, now(), marginMs, ratio);
      return Promise.resolve();
    },
    standing(key) {
      const w = windowOf(key);
      const resetMs = w.endsAt === null ? 0 : Math.max(0, w.endsAt - now());
      const remaining = Math.max(0, w.limit - w.used);
      return Promise.resolve({ remaining, resetSeconds: Math.ceil(resetMs / 1000) });
    },
    capacity: (kind) => share(limitFor(limits, kind)),
  };
}
