/** One JSON line per event on stderr: easy to grep locally, easy to ship to a log service. */
export interface LogContext {
  tenant?: string | undefined;
  path?: string | undefined;
  requestId?: string | undefined;
  [key: string]: unknown;
}

function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { error: error.name, message: error.message, stack: error.stack };
  }
  return { error: String(error) };
}

export function logError(event: string, context: LogContext, error?: unknown): void {
  const line = {
    level: 'error',
    time: new Date().toISOString(),
    event,
    ...context,
    ...(error === undefined ? {} : errorFields(error)),
  };
  console.error(JSON.stringify(line));
}

export function logWarn(event: string, context: LogContext): void {
  console.warn(
    JSON.stringify({ level: 'warn', time: new Date().toISOString(), event, ...context }),
  );
}
