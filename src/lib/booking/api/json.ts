import type { APIContext, APIRoute } from 'astro';
import { PRIVATE, uncachedJson } from '../../delivery/policy.ts';
import type { I18n } from '../../i18n/index.ts';
import { localize, localizeFields } from '../../i18n/text.ts';
import { textKey } from '../../i18n/text-key.ts';
import { widgetI18n } from '../../i18n/widget.ts';
import { requestContext } from '../../log/log.ts';
import { bookingServiceFor } from '../../services/clients.ts';
import { bookingTenant } from '../../tenants/booking.ts';
import type { z } from 'zod';
import { fieldErrorsOf } from '../../failures/fields.ts';
import { invalid, notOffered, refusal, toFailure, type ApiResult } from '../domain/failures.ts';
import { canonicalLocale } from '../domain/schema.ts';
import type { BookingService } from '../service/service.ts';

/** The `/api/booking/*` endpoints' JSON answers, body and origin checks. */

const json = <T>(body: ApiResult<T>, status = 200, headers: Record<string, string> = {}) =>
  uncachedJson(status, body, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': PRIVATE,
    ...headers,
  });

/** The answer's language: the first `Accept-Language` tag, else the tenant's. */
export function answerI18n(context: Pick<APIContext, 'locals' | 'request'>): I18n {
  const tag = context.request.headers.get('accept-language')?.split(/[,;]/)[0]?.trim() ?? '';
  return widgetI18n(context.locals.tenant, tag && tag !== '*' ? canonicalLocale(tag) : undefined);
}

/** `checkOrigin` covers form posts only: a JSON POST must come from this site's pages. */
export function assertSameOrigin(context: APIContext): void {
  const origin = context.request.headers.get('origin');
  // Media types are case-insensitive (`Application/JSON` is JSON too).
  const type = context.request.headers.get('content-type')?.toLowerCase() ?? '';
  // The origin the visitor's browser is on (the forwarded one behind a trusted proxy).
  const own = context.locals.tenantMatchOrNull?.origin;
  if (!own || origin !== own || !type.startsWith('application/json')) {
    throw refusal(403, 'forbidden', textKey('booking.error.forbidden'));
  }
}

/** Runs a handler with the tenant's booking service; every failure becomes a JSON answer. */
export async function handle<T>(
  context: APIContext,
  operation: string,
  run: (service: BookingService) => Promise<T>,
): Promise<Response> {
  const tenant = bookingTenant(context.locals);
  try {
    if (!tenant) throw notOffered();
    const data = await run(bookingServiceFor(tenant));
    return json({ ok: true, data });
  } catch (error) {
    // Not one of ours (a bug): logged with the request's address and id.
    const log = { ...requestContext(context), operation };
    const mapped = toFailure(error, log, tenant?.lodging.contact);
    const i18n = answerI18n(context);
    const { message, fields, retryAfter } = mapped.error;
    const body = {
      ...mapped.error,
      message: localize(i18n, message),
      ...(fields ? { fields: localizeFields(i18n, fields) } : {}),
    };
    const headers = retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) };
    return json({ ok: false, error: body }, mapped.status, headers);
  }
}

/**
 * `ALL` of an endpoint: any method it does not export is a JSON 405 naming those it takes (HEAD is
 * its GET, as Astro routes it without an `ALL`), never the site's HTML 404.
 */
export function otherMethods(routes: Partial<Record<'GET' | 'POST', APIRoute>>): APIRoute {
  const allow = Object.keys(routes).flatMap((method) =>
    method === 'GET' ? ['GET', 'HEAD'] : [method],
  );
  return async (context) => {
    if (context.request.method === 'HEAD' && routes.GET) return routes.GET(context);
    const refused = await handle(context, 'method', () => {
      throw refusal(405, 'method_not_allowed', textKey('booking.error.forbidden'));
    });
    refused.headers.set('Allow', allow.join(', '));
    return refused;
  };
}

/**
 * `input` read by `schema`, else a 422 naming each field: a field's own message, or (for what the
 * schema gives none, such as a field it does not take) "check your details", in the reader's language.
 */
export function parsedOr422<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input, { error: () => textKey('booking.error.details') });
  if (!parsed.success) throw invalid(fieldErrorsOf(parsed.error.issues));
  return parsed.data;
}

/** Reads a JSON body; anything else is a 400 with a plain message. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw refusal(400, 'bad_request', textKey('booking.error.badJson'));
  }
}
