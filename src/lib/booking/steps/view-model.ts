import type { I18n } from '../../i18n/index.ts';
import { stayDate } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/dictionary.ts';
import { widgetSay } from '../../i18n/widget.ts';
import type { Tenant } from '../../tenants/schema.ts';
import { countryOptions } from '../domain/countries.ts';
import { nightsBetween, todayIn } from '../domain/dates.ts';
import { confirmationView } from '../manage/view.ts';
import { bookedFacts, searchFacts } from './partner-events.ts';
import type { Step, StepState } from './order.ts';
import { stepAddress, type StepAddress } from './address.ts';
import { stepQuery, type SearchStep } from './search.ts';
import { roomFacts, type RoomFacts } from './room-facts.ts';
import { reviewRows } from './summary-rows.ts';
import type { AvailabilityResult, PropertySummary, RoomOffer } from '../domain/types.ts';

/** One room card: the offer, what it says, and what a partner page hears when it is chosen. */
export interface RoomCardModel {
  offer: RoomOffer;
  facts: RoomFacts;
  /** JSON of the `room-chosen` partner event (docs/booking-partners.md): no personal data. */
  chosen: string;
}

/** Guest details the review carries as hidden fields to the booking. */
const DETAIL_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'nationality', 'notes'];

/** What each search step's form asks for next and carries from other steps; where Back goes. */
const SEARCH_FORMS = {
  dates: { next: 'guests', carry: ['adults', 'children', 'roomTypeId'] },
  guests: { next: 'rooms', carry: ['property', 'checkIn', 'checkOut', 'roomTypeId'] },
  rooms: { next: 'details', carry: ['property', 'checkIn', 'checkOut', 'adults', 'children'] },
} satisfies Record<string, { next: Step; carry: string[] }>;
const BACK: Partial<Record<Step, SearchStep>> = {
  guests: 'dates',
  rooms: 'guests',
  details: 'rooms',
};

export const placeName = (place: Pick<PropertySummary, 'name' | 'city'>): string =>
  place.city ? `${place.name}, ${place.city}` : place.name;

/** What a step's control is filled with: its id and name, what the guest sent, its messages. */
export interface FieldBinding {
  id: string;
  name: string;
  value?: string | undefined;
  messages?: string[] | undefined;
  min?: string;
  max?: number;
  hint?: string;
}

/** Where the step's forms go, and whether the guest chooses the place (not an embed's own). */
export interface StepsForm {
  address: StepAddress;
  choosePlace: boolean;
}

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
  form: StepsForm = { address: stepAddress('/stay'), choosePlace: properties.length > 1 },
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
  const search = {
    propertyId: place?.id ?? '',
    checkIn: v('checkIn'),
    checkOut: v('checkOut'),
    adults: v('adults'),
    children: v('children'),
    roomTypeId: v('roomTypeId'),
  };
  const idempotencyKey = v('idempotencyKey') || crypto.randomUUID().replaceAll('-', '');
  /** A GET address of `to` with the search so far (for `property`, another place's). */
  const link = (to: SearchStep | 'review', property = place?.id ?? '') =>
    form.address.link(stepQuery({ ...values, property }, to));
  /** The answers of other steps this step's form carries (empty ones left out of the address). */
  const hidden = (): [string, string][] => {
    if (step === 'done') return [];
    if (step === 'details' || step === 'review') {
      const details =
        step === 'review' ? DETAIL_FIELDS.map((name): [string, string] => [name, v(name)]) : [];
      return [['idempotencyKey', idempotencyKey], ...Object.entries(search), ...details];
    }
    const own = (name: string) => (name === 'property' ? (place?.id ?? '') : v(name));
    const carried = SEARCH_FORMS[step].carry
      .map((name): [string, string] => [name, own(name)])
      .filter(([, value]) => value !== '');
    const placeField: [string, string][] =
      step === 'dates' && !form.choosePlace ? [['property', place?.id ?? '']] : [];
    const kept = form.address.hidden.filter(([name]) => name !== 'property');
    return [...kept, ['step', SEARCH_FORMS[step].next], ...carried, ...placeField];
  };
  const back = BACK[step];
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
    reviewRows:
      state.step === 'review'
        ? reviewRows(
            {
              place: place?.name ?? '',
              room: room?.name ?? '',
              checkIn: v('checkIn'),
              checkOut: v('checkOut'),
              adults: Number(v('adults')),
              children: Number(v('children')),
              firstName: v('firstName'),
              lastName: v('lastName'),
              email: v('email'),
              phone: v('phone'),
              country: countryOptions(locale).find((c) => c.code === v('nationality'))?.name ?? '',
              notes: v('notes'),
              total: room?.totalPrice ?? null,
              currency: room?.currency ?? '',
            },
            say,
            locale,
          )
        : [],
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

function searchLine(
  offers: AvailabilityResult,
  say: ReturnType<typeof widgetSay>,
  locale: string,
): string {
  const dates = `${stayDate(offers.checkIn, locale)} – ${stayDate(offers.checkOut, locale)}`;
  const guests = say('guests', { count: offers.adults + offers.children });
  return `${dates} · ${say('nights', { count: offers.nights })} · ${guests}`;
}

function roomCard(
  offer: RoomOffer,
  party: AvailabilityResult,
  say: ReturnType<typeof widgetSay>,
  locale: string,
): RoomCardModel {
  return {
    offer,
    facts: roomFacts(offer, party, say, locale),
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
