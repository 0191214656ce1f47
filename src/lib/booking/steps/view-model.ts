import type { I18n } from '../../i18n/index.ts';
import { stayDate } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/dictionary.ts';
import { widgetSay } from '../../i18n/widget.ts';
import type { Tenant } from '../../tenants/schema.ts';
import { countryOptions } from '../domain/countries.ts';
import { nightsBetween, todayIn } from '../domain/dates.ts';
import { confirmationView } from '../manage/view.ts';
import { bookedFacts, searchFacts } from './partner-events.ts';
import type { StepState } from './order.ts';
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
const DETAIL_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'nationality', 'notes'] as const;

/** The texts `<masthead-booking>` says itself: busy states, the calendar, nights, a lost connection. */
const BROWSER_KEYS = ['searching', 'sending', 'calendarHint', 'prevMonth', 'nextMonth', 'nights'];

/** What BookingSteps.astro shows for one step: everything computed, nothing left to the markup. */
export function stepsModel(
  state: StepState,
  properties: PropertySummary[],
  tenant: Tenant,
  i18n: I18n,
) {
  const { values, offers } = state;
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
    BROWSER_KEYS.map((key) => [key, i18n.message(`widget.${key}` as MessageKey)]),
  );
  browserText['offline'] = i18n.message('booking.error.offline');
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
    step: state.step,
    values,
    place,
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
    idempotencyKey: v('idempotencyKey') || crypto.randomUUID().replaceAll('-', ''),
    search: {
      propertyId: place?.id ?? '',
      checkIn: v('checkIn'),
      checkOut: v('checkOut'),
      adults: v('adults'),
      children: v('children'),
      roomTypeId: v('roomTypeId'),
    },
    detailFields: DETAIL_FIELDS,
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
