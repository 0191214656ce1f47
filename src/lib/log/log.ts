import pino from 'pino';
import { settingDefaults } from '../settings/schema.ts';
import { readSettings } from '../settings/settings.ts';

/**
 * The process's one logger (pino): one JSON line per event on stderr, `level` as a word, `time` in
 * ISO 8601, the least level from `LOG_LEVEL`. Easy to grep locally, easy to ship to a log service.
 */
function levelFromEnvironment(): string {
  try {
    return readSettings(['LOG_LEVEL']).LOG_LEVEL;
  } catch {
    return settingDefaults.LOG_LEVEL; // a bad value is reported by the settings check, not here
  }
}

/**
 * To file descriptor 2, written in the background: a request never waits for whoever reads the
 * log (written synchronously, each request's line waited up to a millisecond on a full pipe under
 * load, 10 % of a render: bench/origin.md). Lines logged while a write is under way go out together
 * in the next one. At most 4 MiB wait; lines beyond that are dropped and counted
 * (`droppedLogLines`, on `/_metrics`); whatever waits is written out when the process exits
 * (`pino.destination` flushes itself then: tests/unit/observability/log-exit.test.ts).
 */
const stderr = pino.destination({ fd: 2, sync: false, maxLength: 4 * 1024 * 1024 });
let dropped = 0;
const drop = () => dropped++;
// A log reader gone (EPIPE) must not take the server with it: the line is counted as dropped.
stderr.on('drop', drop).on('error', drop);

/** Log lines dropped because 4 MiB were already waiting to be written. */
export function droppedLogLines(): number {
  return dropped;
}
let writeLine = (line: string): void => {
  stderr.write(line);
};

/** Sends the log lines to `write` instead (tests that read them); returns a function that undoes it. */
export function redirectLogLines(write: (line: string) => void): () => void {
  const previous = writeLine;
  writeLine = write;
  return () => {
    writeLine = previous;
  };
}

export const logger = pino(
  {
    level: levelFromEnvironment(),
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  { write: (line: string) => writeLine(line) },
);

export interface LogContext {
  tenant?: string | undefined;
  path?: string | undefined;
  requestId?: string | undefined;
  [key: string]: unknown;
}

/** The request a log line is about: its tenant, path and id. */
export function requestContext({ locals, url }: { locals: App.Locals; url: URL }): LogContext {
  return {
    tenant: locals.tenantMatchOrNull?.tenant.id,
    path: url.pathname,
    requestId: locals.requestId,
  };
}

function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { error: error.name, message: error.message, stack: error.stack };
  }
  return { error: String(error) };
}

export function logError(event: string, context: LogContext, error?: unknown): void {
  logger.error({ event, ...context, ...(error === undefined ? {} : errorFields(error)) });
}

export function logWarn(event: string, context: LogContext): void {
  logger.warn({ event, ...context });
}

export function logInfo(event: string, context: LogContext): void {
  logger.info({ event, ...context });
}
