import type { FieldErrors } from '../../failures/fields.ts';
import type { MessageKey } from '../../i18n/dictionary.ts';
import { textKey } from '../../i18n/text-key.ts';
import { addDays, isIsoDate, stayErrors } from '../domain/dates.ts';
import { BookingFailure } from '../domain/failures.ts';
import { stayLinkSchema } from '../domain/schema.ts';
import { guestErrors, hasErrors } from '../domain/rules.ts';
import type { AvailabilityResult, Confirmation } from '../service/lodging-shapes.ts';
import type { BookingService } from '../service/service.ts';

/**
 * The booking's steps, one page each. Dates, guests and room travel as GET query parameters
 * (bookmarkable, Back works); details go by POST (actions/booking.ts). A refused value sends the
 * guest back to the step that asked for it.
 */

/**
 * Each step in order: its name in the step list, its heading (the done step's says the status),
 * its submit button, and the fields it asks for (the search says `property`, the details post
 * `propertyId`).
 */
export const STEP = {
  dates: {
    label: 'booking.stepDates',
    heading: 'booking.datesHeading',
    submit: 'booking.continue',
    fields: ['propertyId', 'property', 'checkIn', 'checkOut'],
  },
  guests: {
    label: 'widget.guestsLabel',
    heading: 'booking.guestsHeading',
    submit: 'booking.showRooms',
    fields: ['adults', 'children'],
  },
  rooms: {
    label: 'widget.room',
    heading: 'booking.roomsHeading',
    submit: 'booking.continue',
    fields: ['roomTypeId'],
  },
  details: {
    label: 'booking.stepDetails',
    heading: 'booking.detailsHeading',
    submit: 'booking.review',
    fields: ['firstName', 'lastName', 'email', 'phone', 'nationality', 'notes'],
  },
  // The review's own buttons say what they do (edit, book); the done step has no form.
  review: {
    label: 'booking.stepReview',
    heading: 'booking.reviewHeading',
    submit: null,
    fields: [],
  },
  done: { label: 'booking.stepDone', heading: null, submit: null, fields: [] },
} as const satisfies Record<
  string,
  { label: MessageKey; heading: MessageKey | null; submit: MessageKey | null; fields: string[] }
>;
export type Step = keyof typeof STEP;
export const STEPS = Object.keys(STEP).filter((step): step is Step => step in STEP);

/** The steps the query reaches (the review and what follows are posted: page.ts). */
const SEARCH_STEPS = ['dates', 'guests', 'rooms', 'details'] as const satisfies readonly Step[];
export type SearchStep = (typeof SEARCH_STEPS)[number];

/** What the query carries from step to step: the search steps' fields (the place as `property`). */
export const SEARCH_FIELDS = [STEP.dates, STEP.guests, STEP.rooms]
  .flatMap((step): string[] => [...step.fields])
  .filter((name) => name !== 'propertyId');

/** The one step state: from the address (`stepFlow`), the action and session (page.ts), rendered (view-model.ts). */
export interface StepState {
  step: Step;
  values: Record<string, string>;
  errors: FieldErrors;
  /** The rooms the search found (null before the guests step, and in what the action answers). */
  offers: AvailabilityResult | null;
  /** Why the step could not go on (the lodging API busy or down, a refusal); '' when none. */
  message: string;
  /** The message is a wait (busy, down): the same form again may work. */
  retry?: boolean;
  /** Seconds until `retry` can work (the "Try again" button is not offered before). */
  wait?: number;
  /** A party too big for the chosen place: the tenant's other places that take it. */
  alternatives?: string[];
  /** A link's stay that has passed (dropped, so the calendar opens at today): said once. */
  stale?: { checkIn: string; checkOut: string };
  /** The same stay was booked moments ago (see `justBooked` in service/create.ts): find it, or book another room. */
  sameStay?: boolean;
  /** The create's answer was lost (`outcomeUnknown` in service/create.ts): a link to find it. */
  maybeBooked?: boolean;
  /** The `done` step: the stay booked. */
  booked?: {
    confirmation: Confirmation;
    /** The private manage path, without the tenant's prefix. */
    manage: string;
    mailed: boolean;
    email: string;
  };
}

function wanted(value: string | null): SearchStep {
  // The review's address without its details (a session gone): the details, to type them again.
  if (value === 'review') return 'details';
  return SEARCH_STEPS.find((step) => step === value) ?? 'dates';
}

/** "Try again" only for a wait (busy, down), and only once the wait its message names is over. */
export function retryOf(error: BookingFailure): { retry: boolean; wait: number } {
  const wait = error.error.code === 'busy' ? (error.error.retryAfter ?? 0) : 0;
  const retry = error.error.code === 'busy' || error.error.code === 'unavailable';
  return { retry, wait };
}

const count = (value: string | undefined): number =>
  value === undefined || value.trim() === '' ? Number.NaN : Number(value);

export async function stepFlow(
  query: URLSearchParams,
  service: Pick<BookingService, 'rules' | 'availability' | 'properties'>,
  defaultProperty: string,
): Promise<StepState> {
  const values: Record<string, string> = { property: defaultProperty, adults: '2', children: '0' };
  for (const name of SEARCH_FIELDS)
    if (query.has(name)) values[name] = (query.get(name) ?? '').slice(0, 100);
  // A deep link's `nights` and `room` (docs/booking-partners.md), read as the embed reads them.
  const link = stayLinkSchema.parse(Object.fromEntries(query));
  const linkedIn = values['checkIn'] ?? '';
  if (!values['checkOut'] && isIsoDate(linkedIn) && link.nights)
    values['checkOut'] = addDays(linkedIn, link.nights);
  if (!values['roomTypeId'] && link.room) values['roomTypeId'] = link.room;
  // A linked stay that has passed is dropped with a notice (the calendar opens at today); a date
  // just typed on the dates step (its form asks for `step=guests`) gets the field's message.
  const step = query.get('step');
  // The stay's today is its place's (time zone), else the tenant's.
  const places = await service.properties();
  const place = places.find((p) => p.id === values['property']);
  const rules = service.rules(place);
  const stale = step === 'guests' ? undefined : staleStay(values, rules.today);
  const target = stale ? 'dates' : wanted(step);
  // A place asked for (a deep link) that did not answer (`properties` left it out) is said, not hidden.
  const leftOut = !place && values['property'] ? textKey('booking.placeNotOnline') : '';
  const at = (
    step: Step,
    errors: FieldErrors = {},
    offers: AvailabilityResult | null = null,
  ): StepState => {
    const message = step === 'dates' ? leftOut : '';
    return { step, values, errors, offers, message, ...(stale ? { stale } : {}) };
  };
  if (target === 'dates') return at('dates');

  const { checkIn = '', checkOut = '' } = values;
  const dates = stayErrors(checkIn, checkOut, rules);
  if (hasErrors(dates)) return at('dates', dates);
  if (target === 'guests') return at('guests');

  const adults = count(values['adults']);
  // An empty Children field is none, as the booking's schema reads it.
  const children = count(values['children']?.trim() || '0');
  if (!place) return at('dates', { propertyId: [textKey('booking.error.placeRequired')] });
  const guests = guestErrors(adults, children, place);
  if (hasErrors(guests)) {
    // The refusal names the place; the tenant's other places that take the party are offered.
    const alternatives = places
      .filter((p) => p.id !== place.id && !hasErrors(guestErrors(adults, children, p)))
      .map((p) => p.id);
    return { ...at('guests', guests), alternatives };
  }

  let offers: AvailabilityResult;
  const asked = { property: place.id, checkIn, checkOut, adults, children };
  try {
    offers = await service.availability(asked);
  } catch (error) {
    if (error instanceof BookingFailure && error.error.code === 'validation') {
      // A refused date goes back to the dates step; anything else stays on the guests step.
      const fields = error.error.fields ?? {};
      const dates = STEP.dates.fields.some((field: string) => fields[field] !== undefined);
      return at(dates ? 'dates' : 'guests', fields);
    }
    // Busy or down: the guests step again, with the reason and what was asked kept.
    if (error instanceof BookingFailure && error.error.code !== 'not_found')
      return { ...at('guests'), message: error.message, ...retryOf(error) };
    throw error;
  }
  if (target === 'rooms') return at('rooms', {}, offers);

  const room = offers.rooms.find((r) => r.roomTypeId === values['roomTypeId']);
  if (!room) return at('rooms', { roomTypeId: [textKey('booking.error.roomRequired')] }, offers);
  if (!room.available)
    return at('rooms', { roomTypeId: [textKey('booking.error.roomUnavailable')] }, offers);
  return at('details', {}, offers);
}

/** A link's check-in before `today`: its dates, removed from `values`. */
function staleStay(values: Record<string, string>, today: string): StepState['stale'] {
  const checkIn = values['checkIn'] ?? '';
  if (!isIsoDate(checkIn) || checkIn >= today) return undefined;
  const checkOut = values['checkOut'] ?? '';
  delete values['checkIn'];
  delete values['checkOut'];
  return { checkIn, checkOut: isIsoDate(checkOut) ? checkOut : '' };
}

/** The query of a step link: the search so far, and the step to show. */
export function stepQuery(values: Record<string, string>, step: Step): string {
  const params = new URLSearchParams({ step });
  for (const name of SEARCH_FIELDS) {
    const value = values[name];
    if (value) params.set(name, value);
  }
  return `?${params}`;
}
