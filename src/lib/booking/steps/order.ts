import type { FieldErrors } from '../../failures/fields.ts';
import type { MessageKey } from '../../i18n/dictionary.ts';
import type { AvailabilityResult, Confirmation } from '../domain/types.ts';

export const STEPS = ['dates', 'guests', 'rooms', 'details', 'review', 'done'] as const;
export type Step = (typeof STEPS)[number];

/** Where a field lives (the search says `property`, the details post `propertyId`). */
const FIELD_STEP: Readonly<Record<string, Step>> = {
  propertyId: 'dates',
  property: 'dates',
  checkIn: 'dates',
  checkOut: 'dates',
  adults: 'guests',
  children: 'guests',
  roomTypeId: 'rooms',
  firstName: 'details',
  lastName: 'details',
  email: 'details',
  phone: 'details',
  nationality: 'details',
  notes: 'details',
};

/** The earliest step any of `errors` belongs to, and never later than `current`. */
export function earliestStep(errors: FieldErrors, current: Step): Step {
  let step: Step = current;
  for (const field of Object.keys(errors)) {
    const at = FIELD_STEP[field];
    if (at && STEPS.indexOf(at) < STEPS.indexOf(step)) step = at;
  }
  return step;
}

/** Each step's name in the step list, and its heading (the done step's heading says the status). */
export const STEP_TEXT = {
  dates: { label: 'booking.stepDates', heading: 'booking.datesHeading' },
  guests: { label: 'booking.stepGuests', heading: 'booking.guestsHeading' },
  rooms: { label: 'booking.stepRooms', heading: 'booking.roomsHeading' },
  details: { label: 'booking.stepDetails', heading: 'booking.detailsHeading' },
  review: { label: 'booking.stepReview', heading: 'booking.reviewHeading' },
  done: { label: 'booking.stepDone', heading: null },
} as const satisfies Record<Step, { label: MessageKey; heading: MessageKey | null }>;

/** The one step state: from the address (search.ts), the action and session (page.ts), rendered (view-model.ts). */
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
  /** The same stay was booked moments ago (see `sameStay` in domain/failures.ts): find it, or book another room. */
  sameStay?: boolean;
  /** The `done` step: the stay booked. */
  booked?: {
    confirmation: Confirmation;
    /** The private manage path, without the tenant's prefix. */
    manage: string;
    mailed: boolean;
    email: string;
  };
}
