import { atom } from 'nanostores';
import type { WritableAtom } from 'nanostores';
import { addDays, stayErrors, todayIn } from '../dates.ts';
import { detailsErrors, guestErrors, hasErrors } from '../rules.ts';
import { textKey } from '../../i18n/text-key.ts';
import { earliestStep, isStep, STEPS, type Step } from '../steps.ts';
import type { FieldRules } from '../rules.ts';
// Types only: the widget bundle stays free of zod.
import type { AvailabilityQuery, BookingRequest } from '../schema.ts';
import type {
  ApiResult,
  AvailabilityResult,
  Confirmation,
  PropertySummary,
  RoomOffer,
} from '../types.ts';
import type { FieldErrors } from '../../failures/fields.ts';

/** The booking flow: one store per widget, with its actions; the DOM only subscribes and calls. */

/** The steps (dates … done): ../steps.ts. */
export type { Step };

/** The booking request being filled in; `adults` and `children` are NaN while an input holds no number. */
export type Draft = Omit<BookingRequest, 'idempotencyKey'>;
export type DraftField = keyof Draft;

export interface BookingState {
  step: Step;
  draft: Draft;
  /** Field messages, keyed by draft field (plus `form`). */
  errors: FieldErrors;
  /** A form-level message (busy, unavailable), shown with a retry. */
  message: string;
  retryable: boolean;
  pending: boolean;
  offers: AvailabilityResult | null;
  confirmation: Confirmation | null;
  idempotencyKey: string;
}

export interface BookingConfig {
  properties: PropertySummary[];
  timeZone: string;
  /** The server's idea of the tenant's today (used when `timeZone` is unknown to the browser). */
  today: string;
  minNights: number;
  maxNights: number;
  /** The lodging API's rules for phone, nationality and notes (tenants.json `lodging.fields`). */
  fields?: FieldRules;
  initial?: Partial<
    Pick<Draft, 'propertyId' | 'checkIn' | 'checkOut' | 'adults' | 'children' | 'roomTypeId'>
  >;
}

/** The site's booking endpoints as the store sees them (`httpApi` in the browser, fakes in tests). */
export interface BookingApi {
  availability(query: AvailabilityQuery): Promise<ApiResult<AvailabilityResult>>;
  book(request: BookingRequest): Promise<ApiResult<Confirmation>>;
}

export function newKey(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

function emptyDraft(config: BookingConfig): Draft {
  const first = config.properties[0]?.id ?? '';
  return {
    propertyId: config.initial?.propertyId ?? first,
    checkIn: config.initial?.checkIn ?? '',
    checkOut: config.initial?.checkOut ?? '',
    adults: config.initial?.adults ?? 2,
    children: config.initial?.children ?? 0,
    roomTypeId: config.initial?.roomTypeId ?? '',
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    nationality: '',
    notes: '',
  };
}

function initialState(config: BookingConfig): BookingState {
  return {
    step: 'dates',
    draft: emptyDraft(config),
    errors: {},
    message: '',
    retryable: false,
    pending: false,
    offers: null,
    confirmation: null,
    idempotencyKey: newKey(),
  };
}

/** The part of the state worth keeping across a reload (nothing transient). */
export type SavedState = Pick<
  BookingState,
  'step' | 'draft' | 'offers' | 'confirmation' | 'idempotencyKey'
>;

export interface BookingStorage {
  load(): SavedState | null;
  save(state: SavedState): void;
}

/** The step a reload returns to: rooms and later need the offers, done needs the confirmation. */
export function restoredStep(saved: SavedState): Step {
  if (!isStep(saved.step)) return 'dates';
  if (saved.step === 'done')
    return saved.confirmation ? 'done' : saved.offers ? 'review' : 'guests';
  if (STEPS.indexOf(saved.step) >= STEPS.indexOf('rooms') && !saved.offers) return 'guests';
  return saved.step;
}

export function createBooking(config: BookingConfig, api: BookingApi, storage?: BookingStorage) {
  const $booking: WritableAtom<BookingState> = atom(initialState(config));
  const saved = storage?.load();
  // A link that names another stay than the one kept (a new campaign click) starts afresh.
  const linked = Object.entries(config.initial ?? {}).every(
    ([field, value]) => saved?.draft[field as DraftField] === value,
  );
  if (saved && linked && config.properties.some((p) => p.id === saved.draft.propertyId)) {
    // A reload keeps the draft and the step, unless the step needs data that was not kept.
    const step = restoredStep(saved);
    $booking.set({ ...$booking.get(), ...saved, step });
  }
  if (storage) {
    $booking.listen((state) => {
      const { step, draft, offers, confirmation, idempotencyKey } = state;
      storage.save({ step, draft, offers, confirmation, idempotencyKey });
    });
  }

  const rules = () => {
    let today = config.today;
    try {
      const local = todayIn(config.timeZone);
      if (local > today) today = local;
    } catch {
      // Unknown time zone in this browser: the server's date stands.
    }
    return { today, minNights: config.minNights, maxNights: config.maxNights };
  };

  /** The property chosen in the draft, or the one with `id`. */
  const property = (id = $booking.get().draft.propertyId): PropertySummary | undefined =>
    config.properties.find((p) => p.id === id);

  const selectedOffer = (): RoomOffer | undefined => {
    const { offers, draft } = $booking.get();
    return offers?.rooms.find((r) => r.roomTypeId === draft.roomTypeId);
  };

  const patch = (next: Partial<BookingState>): void => {
    $booking.set({ ...$booking.get(), ...next });
  };

  /** Shows field messages; a message for an earlier step moves the visitor there. */
  const showErrors = (errors: FieldErrors): void => {
    const step = earliestStep(errors, $booking.get().step);
    patch({ errors, step, pending: false, message: '', retryable: false });
  };

  const stepErrors = (step: Step): FieldErrors => {
    const { draft } = $booking.get();
    const place = property();
    if (step === 'dates') {
      const errors = stayErrors(draft.checkIn, draft.checkOut, rules());
      if (!place) errors['propertyId'] = [textKey('booking.error.placeRequired')];
      return errors;
    }
    if (step === 'guests' && place)
      return guestErrors(draft.adults, draft.children, place.capacity);
    if (step === 'rooms') {
      const offer = selectedOffer();
      if (!offer) return { roomTypeId: [textKey('booking.error.roomRequired')] };
      if (!offer.available) return { roomTypeId: [textKey('booking.error.roomUnavailable')] };
      return {};
    }
    if (step === 'details') return detailsErrors(draft, undefined, config.fields);
    return {};
  };

  const failed = (error: ApiResult<unknown> & { ok: false }): void => {
    const { code, message, fields } = error.error;
    if (code === 'validation' && fields) {
      showErrors(fields);
      return;
    }
    patch({
      pending: false,
      message,
      retryable: code === 'busy' || code === 'unavailable' || code === 'bad_request',
    });
  };

  const offline = (): void => {
    patch({
      pending: false,
      message: textKey('booking.error.offline'),
      retryable: true,
    });
  };

  /** Loads rooms for the current draft and shows them. */
  async function search(): Promise<void> {
    const { draft, pending } = $booking.get();
    if (pending) return;
    patch({ pending: true, message: '', retryable: false });
    let result: ApiResult<AvailabilityResult>;
    try {
      result = await api.availability({
        property: draft.propertyId,
        checkIn: draft.checkIn,
        checkOut: draft.checkOut,
        adults: draft.adults,
        children: draft.children,
      });
    } catch {
      offline();
      return;
    }
    if (!result.ok) {
      failed(result);
      return;
    }
    const offers = result.data;
    const current = offers.rooms.find((r) => r.roomTypeId === $booking.get().draft.roomTypeId);
    patch({
      pending: false,
      offers,
      errors: {},
      step: 'rooms',
      // Keep the chosen room only while it is still free.
      draft: { ...$booking.get().draft, roomTypeId: current?.available ? current.roomTypeId : '' },
    });
  }

  /** Sends the booking; a double click or a retry reuses the same idempotency key. */
  async function book(): Promise<void> {
    const state = $booking.get();
    if (state.pending || state.step !== 'review') return;
    for (const step of ['dates', 'guests', 'rooms', 'details'] as const) {
      const errors = stepErrors(step);
      if (hasErrors(errors)) {
        showErrors(errors);
        return;
      }
    }
    patch({ pending: true, message: '', retryable: false });
    const { draft, idempotencyKey } = state;
    let result: ApiResult<Confirmation>;
    try {
      result = await api.book({ ...draft, idempotencyKey });
    } catch {
      offline();
      return;
    }
    if (result.ok) {
      patch({ pending: false, step: 'done', confirmation: result.data, errors: {} });
      return;
    }
    if (result.error.code === 'validation' && result.error.fields?.['roomTypeId']) {
      // The room went in the meantime: show fresh availability with the message.
      const fields = result.error.fields;
      patch({ pending: false });
      await search();
      patch({ errors: fields, step: 'rooms' });
      return;
    }
    failed(result);
  }

  return {
    $booking,
    property,
    selectedOffer,
    rules,

    /** Sets one field from an input; clears its message; a changed draft gets a new key. */
    update(field: DraftField, raw: string): void {
      const { draft, errors } = $booking.get();
      const value =
        field === 'adults' || field === 'children'
          ? raw.trim() === ''
            ? Number.NaN
            : Number(raw)
          : raw;
      if (draft[field] === value) return;
      const { [field]: _cleared, ...rest } = errors;
      const nextDraft = { ...draft, [field]: value };
      const next: Partial<BookingState> = {
        draft: nextDraft,
        errors: rest,
        idempotencyKey: newKey(),
      };
      // New dates, guests or place: the rooms shown no longer apply.
      if (['propertyId', 'checkIn', 'checkOut', 'adults', 'children'].includes(field)) {
        next.offers = null;
      }
      // A check-in after the chosen check-out: move check-out to the shortest allowed stay.
      if (
        field === 'checkIn' &&
        typeof value === 'string' &&
        draft.checkOut &&
        value >= draft.checkOut
      ) {
        try {
          next.draft = { ...nextDraft, checkOut: addDays(value, config.minNights) };
        } catch {
          // Not a full date yet.
        }
      }
      patch(next);
    },

    /** Validates the current step and moves on (searching rooms after the guests step). */
    async next(): Promise<void> {
      const { step, pending } = $booking.get();
      if (pending) return;
      if (step === 'review') return book();
      if (step === 'done') return;
      const errors = stepErrors(step);
      if (hasErrors(errors)) {
        showErrors(errors);
        return;
      }
      if (step === 'guests') return search();
      const following = STEPS[STEPS.indexOf(step) + 1] as Step;
      patch({ step: following, errors: {}, message: '', retryable: false });
    },

    back(): void {
      const { step, pending } = $booking.get();
      const index = STEPS.indexOf(step);
      if (pending || index <= 0 || step === 'done') return;
      patch({ step: STEPS[index - 1] as Step, errors: {}, message: '', retryable: false });
    },

    /**
     * The browser's Back and Forward: any earlier step (the done step too: booking again with the
     * same details and key gives the same booking), or the next one through its usual checks.
     */
    async goTo(target: Step): Promise<void> {
      const { step, pending } = $booking.get();
      const from = STEPS.indexOf(step);
      const to = STEPS.indexOf(target);
      if (pending || to === from) return;
      if (to < from) {
        patch({ step: target, errors: {}, message: '', retryable: false });
        return;
      }
      if (to === from + 1 && target !== 'done') await this.next();
    },

    /** Retries whatever failed on this step (search or booking). */
    async retry(): Promise<void> {
      const { step } = $booking.get();
      if (step === 'review') return book();
      if (step === 'guests' || step === 'rooms') return search();
      patch({ message: '', retryable: false });
    },

    search,
    book,

    /** After a confirmation: a new booking with the same place, dates and party. */
    restart(): void {
      const { draft } = $booking.get();
      const fresh = initialState(config);
      $booking.set({
        ...fresh,
        draft: { ...fresh.draft, propertyId: draft.propertyId },
      });
    },
  };
}

export type BookingController = ReturnType<typeof createBooking>;
