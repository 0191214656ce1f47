import { AsyncLocalStorage } from 'node:async_hooks';

/** What one request's log line and metrics gather while it runs (src/lib/observability/request.ts). */
export interface RequestRecord {
  tenant?: string | undefined;
  /** The page's route pattern (`/posts/[slug]`), set by the middleware when a page renders. */
  route?: string | undefined;
  upstreamCalls: number;
}

const storage = new AsyncLocalStorage<RequestRecord>();

export function runInRequest<T>(record: RequestRecord, run: () => T): T {
  return storage.run(record, run);
}

/** The request being served, if any (not in background work started outside one). */
export function currentRequest(): RequestRecord | undefined {
  return storage.getStore();
}

/** Runs `fn` outside any request (work started by one that outlives it, such as the change watcher). */
export function outsideRequest<T>(run: () => T): T {
  return storage.exit(run);
}
