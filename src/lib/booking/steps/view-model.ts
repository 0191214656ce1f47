import type { I18n } from '../../i18n/index.ts';
import { stayDate } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/dictionary.ts';
import { widgetSay } from '../../i18n/widget.ts';
import type { Say } from '../../i18n/say.ts';
import type { Tenant } from '../../tenants/schema.ts';
import { countryOptions } from '../domain/countries.ts';
import { nightsBetween, stayZone, todayIn } from '../domain/dates.ts';
import { detailsPresentation, stayBegun } from '../domain/rules.ts';
import { manageView } from '../manage/view.ts';
import { bookedFacts, searchFacts } from './partner-events.ts';
import { stepAddress, type StepAddress } from './address.ts';
import { SEARCH_FIELDS, STEP, STEPS, stepQuery, type Step, type StepState } from './flow.ts';
import { roomFacts } from './room-facts.ts';
import { summaryRows } from './summary-rows.ts';
import type { AvailabilityResult, PropertySummary, RoomOffer } from '../service/lodging-shapes.ts';

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

/** Where the steps are shown: the page their forms go to, and what an embed keeps and fixes. */
export interface StepsPage {
  /** The page the forms go to (`href('/stay')`, or the embed's frame). */
  base: string;
  /** Query an embed keeps on every step (`origin`, `locale`). */
  keep?: Record<string, string> | undefined;
  /** Embedded: the partner's origin (the only `postMessage` target); the property is the page's. */
  parentOrigin?: string | undefined;
  /** The tenant's path prefix (`locals.href`). */
  href?: (path: string) => string;
}

/** What BookingSteps.astro shows for one step: everything computed, nothing left to the markup. */
export function stepsModel(
  state: StepState,
  properties: PropertySummary[],
  tenant: Tenant,
  i18n: I18n,
  page: StepsPage = { base: '/stay' },
) {
  const { values, offers, step } = state;
  const v = (name: string) => values[name] ?? '';
  const { locale } = i18n;
  const say = widgetSay(i18n);
  const address = stepAddress(page.base, page.keep);
  const choosePlace = properties.length > 1 && !page.parentOrigin;
  const place =
    properties.find((p) => p.id === (v('property') || v('propertyId'))) ?? properties[0];
  const room = offers?.rooms.find((r) => r.roomTypeId === v('roomTypeId'));
  const minNights = tenant.lodging?.minNights ?? 1;
  const maxNights = tenant.lodging?.maxNights ?? 30;
  // The calendar's first day: today where the place is (else where the tenant is), as the server's.
  const today = todayIn(stayZone(place, tenant));
  const nights = nightsBetween(v('checkIn'), v('checkOut'));
  const browserText = Object.fromEntries(
    Object.entries(BROWSER_TEXT).map(([name, key]) => [name, i18n.message(key)]),
  );
  const idempotencyKey = v('idempotencyKey') || crypto.randomUUID().replaceAll('-', '');
  /** A GET address of `to` with the search so far (for `property`, another place's). */
  const link = (to: Step, property = place?.id ?? '') =>
    address.link(stepQuery({ ...values, property }, to));
  // Back goes to the step before, up to the details (the review has its own "Edit").
  const back = ['guests', 'rooms', 'details'].includes(step)
    ? STEPS[STEPS.indexOf(step) - 1]
    : undefined;
  const confirmation = state.booked?.confirmation;
  const property = properties.find((p) => p.id === confirmation?.propertyId);
  const booked = state.booked && {
    ...state.booked,
    view: manageView(
      {
        ...state.booked.confirmation,
        property,
        begun: stayBegun(state.booked.confirmation.checkIn, stayZone(property, tenant)),
      },
      i18n,
    ),
  };
  const manage = booked ? (page.href ?? String)(booked.manage) : '';
  return {
    step,
    values,
    place,
    address,
    /** The address that shows this step again on a GET (the element puts it in the address bar). */
    url:
      step !== 'done'
        ? link(step)
        : page.parentOrigin
          ? address.link('')
          : `${manage}${booked?.mailed ? '?mailed=1' : ''}`,
    /** The details and the review are posted to the action; the search steps are GET forms. */
    posted: step === 'details' || step === 'review',
    /** Refused as the same stay booked moments ago: find that booking, or book another room. */
    sameStay: state.sameStay === true && step === 'review',
    /** Booked maybe (same stay, or a lost answer): a link to find that booking. */
    find: (state.sameStay === true || state.maybeBooked === true) && step === 'review',
    wait: state.wait ?? 0,
    /** An embed's typed values are kept per place (a partner page may frame several). */
    storageKey: `${tenant.id}:${page.parentOrigin ? (place?.id ?? '') : ''}`,
    hidden: hiddenFields(state, place, idempotencyKey, address, choosePlace),
    choosePlace,
    ...stepFields(state, i18n, tenant),
    capacity: place?.capacity ?? { maxAdults: 4, maxChildren: 4, maxOccupancy: 4 },
    nightsHint:
      minNights === 1
        ? i18n.t('booking.nightsUpTo', { max: maxNights })
        : i18n.t('booking.nightsRange', { min: minNights, max: maxNights }),
    back: back ? link(back) : undefined,
    today,
    calendarRules: JSON.stringify({ today, minNights, maxNights }),
    nights: nights > 0 ? say('nights', { count: nights }) : '',
    browserText: JSON.stringify(browserText),
    guestsAt: place ? i18n.t('booking.guestsAt', { place: placeName(place) }) : '',
    searchLine: offers ? searchLine(offers, say, locale) : '',
    searchFacts: offers ? JSON.stringify(searchFacts(offers)) : undefined,
    rooms: offers ? offers.rooms.map((offer) => roomCard(offer, offers, say, locale)) : [],
    nothingFree: offers ? !offers.rooms.some((r) => r.available) : false,
    idempotencyKey,
    reviewRows: step === 'review' ? reviewRows(v, place, room, nights, say, locale) : [],
    booked,
    manage,
    bookedFacts: booked ? JSON.stringify(bookedFacts(booked.confirmation)) : undefined,
    /** The tenant's other places that take a party too big for this one (links keep the dates). */
    alternatives: (state.alternatives ?? []).flatMap((id) => {
      const other = properties.find((p) => p.id === id);
      return other ? [{ name: placeName(other), href: link('rooms', other.id) }] : [];
    }),
    staleNotice: state.stale
      ? i18n.t('booking.staleDates', {
          checkIn: stayDate(state.stale.checkIn, locale),
          checkOut: state.stale.checkOut ? stayDate(state.stale.checkOut, locale) : '…',
        })
      : '',
  };
}

/** The answers of other steps this step's form carries (empty ones left out of the address). */
function hiddenFields(
  { step, values }: StepState,
  place: PropertySummary | undefined,
  idempotencyKey: string,
  address: StepAddress,
  choosePlace: boolean,
): [string, string][] {
  /** A field and what the guest answered (`property`: the place shown). */
  const answer = (name: string): [string, string] => [
    name,
    name === 'property' ? (place?.id ?? '') : (values[name] ?? ''),
  ];
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
  const own: readonly string[] = STEP[step].fields;
  const carried = SEARCH_FIELDS.filter((name) => !own.includes(name))
    .map(answer)
    .filter(([, value]) => value !== '');
  const placeField = step === 'dates' && !choosePlace ? [answer('property')] : [];
  const kept = address.hidden.filter(([name]) => name !== 'property');
  return [...kept, ['step', STEPS[STEPS.indexOf(step) + 1] ?? step], ...carried, ...placeField];
}

/**
 * The labelled controls of the details, dates and guests: a control's label, what the guest sent and
 * the messages it earned; a detail the tenant may require (`lodging.fields`) says so in its label.
 */
function stepFields({ values, errors }: StepState, { t }: I18n, tenant: Tenant) {
  const rules = detailsPresentation(tenant.lodging?.fields);
  type Asked = 'checkIn' | 'checkOut' | 'adults' | 'children' | 'firstName' | 'lastName' | 'email';
  const field = (name: Asked | 'phone' | 'nationality' | 'notes') => ({
    id: `booking-${name}`,
    name,
    // The dates and the e-mail are labelled in the summary's words.
    label: t(
      name === 'checkIn' || name === 'checkOut' || name === 'email'
        ? `widget.${name}`
        : `booking.${name}`,
    ),
    value: values[name] ?? '',
    messages: errors[name],
  });
  const detail = (name: 'phone' | 'nationality' | 'notes') => {
    const required = rules[`${name}Required`];
    const label = name === 'notes' ? t('booking.notesRequired') : t(`widget.${name}`);
    return { ...field(name), required, ...(required ? { label } : {}) };
  };
  return { field, detail, notesMax: rules.notesMax };
}

/** The review step's rows, from the step values as the guest gave them. */
function reviewRows(
  v: (name: string) => string,
  place: PropertySummary | undefined,
  room: RoomOffer | undefined,
  nights: number,
  say: Say,
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

function searchLine(offers: AvailabilityResult, say: Say, locale: string): string {
  const dates = `${stayDate(offers.checkIn, locale)} – ${stayDate(offers.checkOut, locale)}`;
  const guests = say('guests', { count: offers.adults + offers.children });
  return `${dates} · ${say('nights', { count: offers.nights })} · ${guests}`;
}

/** One room card: the offer, what it says, and what a partner page hears when it is chosen. */
function roomCard(offer: RoomOffer, party: AvailabilityResult, say: Say, locale: string) {
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
