import type { I18n } from '../../i18n/index.ts';
import { stayDate } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/dictionary.ts';
import { widgetSay } from '../../i18n/widget.ts';
import type { Tenant } from '../../tenants/schema.ts';
import { countryOptions } from '../domain/countries.ts';
import { nightsBetween, todayIn } from '../domain/dates.ts';
import { confirmationView } from '../manage/view.ts';
import { bookedFacts, searchFacts } from './partner-events.ts';
import { stepAddress, type StepAddress } from './address.ts';
import { SEARCH_FIELDS, STEP, STEPS, stepQuery, type Step, type StepState } from './flow.ts';
import { roomFacts } from './room-facts.ts';
import { summaryRows } from './summary-rows.ts';
import type { AvailabilityResult, PropertySummary, RoomOffer } from '../domain/types.ts';

export const placeName = (place: Pick<PropertySummary, 'name' | 'city'>): string =>
  place.city ? `${place.name}, ${place.city}` : place.name;

/** The texts `<masthead-booking>` says itself: busy states, the calendar, nights, a lost connection. */
const BROWSER_TEXT = {
  searching: 'widget.searching',
  sending: 'widget.sending',
  calendarHint: 'widget.calendarHint',
  prevMonth: 'widget.prevMonth',
  nextMonth: 'widget.nextMonth',
  nights: 'widget.nights',
  offline: 'booking.error.offline',
} satisfies Record<string, MessageKey>;

/** What BookingSteps.astro shows for one step: everything computed, nothing left to the markup. */
export function stepsModel(
  state: StepState,
  properties: PropertySummary[],
  tenant: Tenant,
  i18n: I18n,
  /** Where the step's forms go, and whether the guest chooses the place (not an embed's own). */
  form: { address: StepAddress; choosePlace: boolean } = {
    address: stepAddress('/stay'),
    choosePlace: properties.length > 1,
  },
) {
  const { values, offers, step } = state;
  const v = (name: string) => values[name] ?? '';
  const { locale } = i18n;
  const say = widgetSay(i18n);
  const place =
    properties.find((p) => p.id === (v('property') || v('propertyId'))) ?? properties[0];
  const room = offers?.rooms.find((r) => r.roomTypeId === v('roomTypeId'));
  const minNights = tenant.lodging?.minNights ?? 1;
  const maxNights = tenant.lodging?.maxNights ?? 30;
  const today = todayIn(tenant.timeZone);
  const nights = nightsBetween(v('checkIn'), v('checkOut'));
  const browserText = Object.fromEntries(
    Object.entries(BROWSER_TEXT).map(([name, key]) => [name, i18n.message(key)]),
  );
  const idempotencyKey = v('idempotencyKey') || crypto.randomUUID().replaceAll('-', '');
  /** A GET address of `to` with the search so far (for `property`, another place's). */
  const link = (to: Step, property = place?.id ?? '') =>
    form.address.link(stepQuery({ ...values, property }, to));
  /** A field and what the guest answered (`property`: the place shown). */
  const answer = (name: string): [string, string] => [
    name,
    name === 'property' ? (place?.id ?? '') : v(name),
  ];
  /** The answers of other steps this step's form carries (empty ones left out of the address). */
  const hidden = (): [string, string][] => {
    if (step === 'done') return [];
    if (step === 'details' || step === 'review') {
      // The post names the place `propertyId`; the review carries the details as typed too.
      const search = SEARCH_FIELDS.map(answer).map(([name, value]): [string, string] => [
        name === 'property' ? 'propertyId' : name,
        value,
      ]);
      const details = step === 'review' ? STEP.details.fields.map(answer) : [];
      return [['idempotencyKey', idempotencyKey], ...search, ...details];
    }
    // The search's fields this step does not ask for.
    const own: readonly string[] = STEP[step].fields;
    const carried = SEARCH_FIELDS.filter((name) => !own.includes(name))
      .map(answer)
      .filter(([, value]) => value !== '');
    const placeField = step === 'dates' && !form.choosePlace ? [answer('property')] : [];
    const kept = form.address.hidden.filter(([name]) => name !== 'property');
    return [...kept, ['step', STEPS[STEPS.indexOf(step) + 1] ?? step], ...carried, ...placeField];
  };
  // Back goes to the step before, up to the details (the review has its own "Edit").
  const back = ['guests', 'rooms', 'details'].includes(step)
    ? STEPS[STEPS.indexOf(step) - 1]
    : undefined;
  const booked = state.booked
    ? {
        ...state.booked,
        view: confirmationView(
          state.booked.confirmation,
          properties.find((p) => p.id === state.booked?.confirmation.propertyId),
          i18n,
        ),
      }
    : undefined;
  return {
    step,
    values,
    place,
    hidden: hidden(),
    back: back ? link(back) : undefined,
    link,
    offers,
    today,
    capacity: place?.capacity ?? { maxAdults: 4, maxChildren: 4, maxOccupancy: 4 },
    nightsHint:
      minNights === 1
        ? i18n.t('booking.nightsUpTo', { max: maxNights })
        : i18n.t('booking.nightsRange', { min: minNights, max: maxNights }),
    calendarRules: JSON.stringify({ today, minNights, maxNights }),
    nights: nights > 0 ? say('nights', { count: nights }) : '',
    browserText: JSON.stringify(browserText),
    searchLine: offers ? searchLine(offers, say, locale) : '',
    searchFacts: offers ? JSON.stringify(searchFacts(offers)) : undefined,
    rooms: offers ? offers.rooms.map((offer) => roomCard(offer, offers, say, locale)) : [],
    nothingFree: offers ? !offers.rooms.some((r) => r.available) : false,
    idempotencyKey,
    reviewRows: step === 'review' ? reviewRows(v, place, room, nights, say, locale) : [],
    booked,
    bookedFacts: booked ? JSON.stringify(bookedFacts(booked.confirmation)) : undefined,
    /** The tenant's other places that take a party too big for this one (links keep the dates). */
    alternatives: (state.alternatives ?? [])
      .map((id) => properties.find((p) => p.id === id))
      .filter((p): p is PropertySummary => p !== undefined),
    staleNotice: state.stale
      ? i18n.t('booking.staleDates', {
          checkIn: stayDate(state.stale.checkIn, locale),
          checkOut: state.stale.checkOut ? stayDate(state.stale.checkOut, locale) : '…',
        })
      : '',
  };
}

/** The review step's rows, from the step values as the guest gave them. */
function reviewRows(
  v: (name: string) => string,
  place: PropertySummary | undefined,
  room: RoomOffer | undefined,
  nights: number,
  say: ReturnType<typeof widgetSay>,
  locale: string,
) {
  return summaryRows(
    {
      place: place?.name ?? '',
      room: room?.name ?? '',
      checkIn: v('checkIn'),
      checkOut: v('checkOut'),
      nights,
      adults: Number(v('adults')),
      children: Number(v('children')),
      name: `${v('firstName')} ${v('lastName')}`,
      email: v('email'),
      phone: v('phone'),
      country: countryOptions(locale).find((c) => c.code === v('nationality'))?.name,
      notes: v('notes'),
      total: room?.totalPrice ?? null,
      currency: room?.currency ?? '',
    },
    say,
    locale,
  );
}

function searchLine(
  offers: AvailabilityResult,
  say: ReturnType<typeof widgetSay>,
  locale: string,
): string {
  const dates = `${stayDate(offers.checkIn, locale)} – ${stayDate(offers.checkOut, locale)}`;
  const guests = say('guests', { count: offers.adults + offers.children });
  return `${dates} · ${say('nights', { count: offers.nights })} · ${guests}`;
}

/** One room card: the offer, what it says, and what a partner page hears when it is chosen. */
function roomCard(
  offer: RoomOffer,
  party: AvailabilityResult,
  say: ReturnType<typeof widgetSay>,
  locale: string,
) {
  return {
    offer,
    facts: roomFacts(offer, party, say, locale),
    /** JSON of the `room-chosen` partner event (docs/booking-partners.md): no personal data. */
    chosen: JSON.stringify({
      propertyId: party.propertyId,
      roomTypeId: offer.roomTypeId,
      checkIn: party.checkIn,
      checkOut: party.checkOut,
      nights: party.nights,
      value: offer.totalPrice,
      currency: offer.currency,
    }),
  };
}

export type RoomCardModel = ReturnType<typeof roomCard>;
