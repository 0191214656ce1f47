import { classify, isTemporary, KnownFailure } from '../../failures/classify.ts';
import { retryAfterOf, temporaryMessage } from '../../delivery/policy.ts';
import type { Failure } from '../../failures/classify.ts';
import type { FieldErrors } from '../../failures/fields.ts';
import { logError, type LogContext } from '../../log/log.ts';
import { contactLine, type BookingContact } from './contact.ts';
import { textKey } from '../../i18n/text-key.ts';
import { bookingRequestSchema } from './schema.ts';

export type ErrorCode =
  | 'validation'
  | 'busy'
  | 'unavailable'
  /** The lodging API's answers cannot be used: book by contacting the tenant (`contact`), no retry. */
  | 'not_online'
  | 'not_found'
  | 'forbidden'
  | 'conflict'
  /** The same stay was booked moments ago (another tab): book it again only with `anotherRoom`. */
  | 'same_stay'
  | 'bad_request'
  /** The endpoint does not take this method (405; `Allow` names those it does). */
  | 'method_not_allowed'
  /** The request body was above the site's limit (413): nothing was read or sent. */
  | 'too_large'
  /** The address was too long for any page (414). */
  | 'too_long';

export interface ApiError {
  code: ErrorCode;
  /** Safe to show: never an upstream message or a stack. */
  message: string;
  fields?: FieldErrors;
  /** Seconds until a retry can succeed (`busy`, `unavailable`). */
  retryAfter?: number;
  /** `not_online`: whom to contact instead. */
  contact?: BookingContact;
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/** A failure with a visitor-safe payload; endpoints turn it into JSON, pages into 404/503. */
export class BookingFailure extends KnownFailure {
  override name = 'BookingFailure';
  readonly error: ApiError;
  readonly status: number;

  constructor(status: number, error: ApiError) {
    super(error.message, kindOf(error, status));
    this.status = status;
    this.error = error;
  }
}

function kindOf({ code, message, fields, retryAfter }: ApiError, status: number): Failure {
  // Our own bug (`toFailure`): no outage a page would answer 503 for.
  if (status === 500) return { kind: 'unexpected' };
  if (code === 'not_found') return { kind: 'not-found' };
  if (code === 'unavailable') return { kind: 'outage', retryAfterSeconds: retryAfter };
  if (code === 'busy') return { kind: 'busy', retryAfterSeconds: retryAfter ?? 1 };
  if (code === 'forbidden') return { kind: 'refused', status: 403 };
  if (code === 'not_online') return { kind: 'unsupported', message };
  return { kind: 'invalid', fields: fields ?? {}, message };
}

/** A failure with its status, code and text key (and what else `ApiError` may carry). */
export const refusal = (
  status: number,
  code: ApiError['code'],
  message: string,
  more: Omit<ApiError, 'code' | 'message'> = {},
) => new BookingFailure(status, { code, message, ...more });

export const invalid = (fields: FieldErrors) =>
  refusal(422, 'validation', textKey('booking.error.fields'), { fields });
export const notOffered = () => refusal(404, 'not_found', textKey('booking.error.notOffered'));
export const placeNotFound = () =>
  refusal(404, 'not_found', textKey('booking.error.placeNotFound'));

/** Too many requests: from the upstream, our budget, or this visitor (`message` says which). */
export const busy = (message: string, retryAfter: number) =>
  refusal(429, 'busy', message, { retryAfter });

export const unavailable = (message: string, retryAfter: number) =>
  refusal(503, 'unavailable', message, { retryAfter });

/** What the guest asks the contact to do instead: its notice with a contact, and without one. */
const NOT_ONLINE = {
  book: ['booking.notOnline', 'booking.notOnlineDirect'],
  cancel: ['manage.cancelNotOnline', 'manage.cancelNotOnlineDirect'],
} as const;

/**
 * The lodging API answers in a way this site cannot use (a required field is missing): no retry
 * promise, the tenant's contact instead. The operator sees the problem in the logs and `/_status`.
 */
export function notOnline(
  contact: BookingContact | undefined,
  doing: keyof typeof NOT_ONLINE = 'book',
): BookingFailure {
  const ways = contactLine(contact);
  const [withContact, direct] = NOT_ONLINE[doing];
  const message = ways ? textKey(withContact, { contact: ways }) : textKey(direct);
  return refusal(503, 'not_online', message, contact ? { contact } : {});
}

/** What a page shows instead of the booking when the lodging API's answers cannot be used. */
export interface NotOnline {
  kind: 'not-online';
  /** A text key that names the contact, which a page shows as links. */
  message: string;
  contact: BookingContact | undefined;
}

/** `load`'s value, or "not available online" (with whom to contact) when it failed with `notOnline`. */
export async function orNotOnline<T>(load: Promise<T>): Promise<T | NotOnline> {
  try {
    return await load;
  } catch (error) {
    if (!(error instanceof BookingFailure && error.error.code === 'not_online')) throw error;
    return { kind: 'not-online', message: error.message, contact: error.error.contact };
  }
}

/** The widget's field for an upstream one (`check_in` is `checkIn`); any other is the form's. */
function widgetField(upstream: string): string {
  const renamed: Record<string, string> = { guests: 'adults', full_name: 'lastName' };
  const name =
    renamed[upstream] ?? upstream.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return name !== 'idempotencyKey' && Object.hasOwn(bookingRequestSchema.shape, name)
    ? name
    : 'form';
}

/** The upstream's 422 messages on the widget's fields (a refused room means it went meanwhile). */
function widgetFields(upstream: FieldErrors): FieldErrors {
  const fields: FieldErrors = {};
  for (const [name, messages] of Object.entries(upstream)) {
    const key = widgetField(name);
    fields[key] = key === 'roomTypeId' ? [textKey('booking.error.roomGone')] : messages;
  }
  return Object.keys(fields).length ? fields : { form: [textKey('booking.error.details')] };
}

/**
 * Maps a thrown error to a visitor-safe failure (upstream messages stay in the logs); `contact`
 * (the tenant's `lodging.contact`) is how to book, or cancel (`doing`), when the site cannot.
 */
export function toFailure(
  error: unknown,
  context: LogContext,
  contact?: BookingContact,
  doing: keyof typeof NOT_ONLINE = 'book',
): BookingFailure {
  if (error instanceof BookingFailure) return error;
  const failure = classify(error);
  if (failure.kind === 'invalid') return invalid(widgetFields(failure.fields));
  if (failure.kind === 'not-found') return placeNotFound();
  // Busy or down: said as every form says it (`temporaryMessage`), with when to try again.
  const temporary = isTemporary(failure) && temporaryMessage(failure, 'booking.error');
  if (temporary) {
    const code = failure.kind === 'busy' ? 'busy' : 'unavailable';
    return refusal(temporary.status, code, temporary.message, {
      retryAfter: retryAfterOf(failure),
    });
  }
  // Outages were logged once by the upstream client; the rest is loud in the logs (with a bug's
  // stack) and promises no wait: 401/403 (the site's token or configuration) is "book directly".
  logError('booking.failed', context, error);
  if (failure.kind === 'refused') return notOnline(contact, doing);
  return refusal(500, 'unavailable', textKey('booking.error.unavailable'));
}
