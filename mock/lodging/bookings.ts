import { randomUUID } from 'node:crypto';
import { isoTime } from '../lib/dates.ts';
import { invalid, notFound, readBody } from '../lib/http.ts';
import { createRng } from '../lib/prng.ts';
import { paginate, paginateRaw } from '../lib/paginate.ts';
import { addError, msg, parse, type FieldErrors } from '../lib/validation.ts';
import type { MockState } from '../state.ts';
import type { LodgeApp, LodgeContext } from './context.ts';
import { isAlt, rulesOf, type LodgingRules } from './dialect.ts';
import type { Booking, BookingStatus } from './model.ts';
import { checkStay, freeRooms, price } from './rules.ts';
import { booking } from './serialize.ts';
import { altBooking } from './serialize-alt.ts';

const refRng = createRng(Date.now());

function move(rules: LodgingRules, b: Booking, to: BookingStatus, errors: FieldErrors): void {
  if (to !== b.status && !(rules.transitions[b.status] ?? []).includes(to)) {
    addError(errors, 'status', `The status cannot change from ${b.status} to ${to}.`);
  }
}

export function bookingRoutes(api: LodgeApp, state: MockState): void {
  const own = (c: LodgeContext) =>
    state.lodging.bookings.filter((b) => b.accountId === c.get('token').accountId);
  const find = (c: LodgeContext) => own(c).find((b) => b.id === c.req.param('id'));
  /** One booking: `{ data }` in the default dialect, the bare model in alt. */
  const one = (c: LodgeContext, b: Booking, status: 200 | 201 = 200) =>
    isAlt(c) ? c.json(altBooking(state.lodging, b), status) : c.json({ data: booking(b) }, status);

  api.get('/bookings', (c) => {
    const query = c.req.query();
    const rules = rulesOf(c);
    const page = parse(rules.page, query);
    const f = parse(rules.bookingList, query);
    if (!page.ok || !f.ok) {
      return invalid(c, { ...(f.ok ? {} : f.errors), ...(page.ok ? {} : page.errors) });
    }
    const q = f.data;
    const list = own(c)
      .filter(
        (b) =>
          (q.status === undefined || b.status === q.status) &&
          (q.property_id === undefined || b.propertyId === q.property_id) &&
          (q.guest_id === undefined || b.guestId === q.guest_id) &&
          (q.check_in_from === undefined || b.checkIn >= q.check_in_from) &&
          (q.check_in_to === undefined || b.checkIn <= q.check_in_to),
      )
      .sort((a, b) => a.checkIn.localeCompare(b.checkIn) || a.createdAt.localeCompare(b.createdAt));
    return isAlt(c)
      ? c.json(paginateRaw(list, page.data, c.req.url, (b) => altBooking(state.lodging, b)))
      : c.json(paginate(list, page.data, c.req.url, booking));
  });

  api.post('/bookings', async (c) => {
    const rules = rulesOf(c);
    const input = parse(rules.bookingCreate, await readBody(c));
    if (!input.ok) return invalid(c, input.errors);
    const d = input.data;
    const accountId = c.get('token').accountId;
    const errors: FieldErrors = {};
    const p = state.lodging.properties.find(
      (x) => x.id === d.property_id && x.accountId === accountId,
    );
    const rt = p?.roomTypes.find((r) => r.id === d.room_type_id);
    const guest = state.lodging.guests.find(
      (g) => g.id === d.guest_id && g.accountId === accountId,
    );
    const children = d.children ?? 0;
    if (!p) addError(errors, 'property_id', msg.selected('property_id'));
    if (p && !rt) addError(errors, 'room_type_id', msg.selected('room_type_id'));
    if (!guest) addError(errors, 'guest_id', msg.selected('guest_id'));
    checkStay(d.check_in, d.check_out, p?.timezone ?? 'UTC', errors);
    if (rt) {
      if (d.adults > rt.maxAdults) addError(errors, 'adults', msg.max('adults', rt.maxAdults));
      if (children > rt.maxChildren)
        addError(errors, 'children', msg.max('children', rt.maxChildren));
      if (d.adults + children > rt.maxOccupancy) {
        addError(errors, 'adults', `The room type allows at most ${rt.maxOccupancy} guests.`);
      }
    }
    if (
      rt &&
      !errors.check_in &&
      !errors.check_out &&
      freeRooms(state.lodging, rt, d.check_in, d.check_out) < 1
    ) {
      addError(
        errors,
        'room_type_id',
        'No rooms of this type are available for the selected dates.',
      );
    }
    if (!p || !rt || Object.keys(errors).length) return invalid(c, errors);
    const now = isoTime(new Date());
    const created: Booking = {
      id: randomUUID(),
      accountId,
      reference: `BK-${refRng.chars(6).toUpperCase()}`,
      propertyId: p.id,
      roomTypeId: rt.id,
      guestId: d.guest_id,
      checkIn: d.check_in,
      checkOut: d.check_out,
      adults: d.adults,
      children,
      notes: d.notes ?? null,
      status: rules.newBooking,
      totalPrice: price(rt, d.check_in, d.check_out),
      currency: p.currency,
      createdAt: now,
      updatedAt: now,
    };
    state.lodging.bookings.push(created);
    return one(c, created, rules.created);
  });

  api.patch('/bookings/:id', async (c) => {
    const b = find(c);
    if (!b) return notFound(c);
    const rules = rulesOf(c);
    const body = await readBody(c);
    const input = parse(rules.bookingUpdate, body);
    if (!input.ok) return invalid(c, input.errors);
    const errors: FieldErrors = {};
    if (input.data.status !== undefined) move(rules, b, input.data.status, errors);
    if (Object.keys(errors).length) return invalid(c, errors);
    if (input.data.status !== undefined) b.status = input.data.status;
    // `notes: null` or "" clears the notes (Laravel nullable).
    if ('notes' in body) b.notes = input.data.notes ?? null;
    b.updatedAt = isoTime(new Date());
    return one(c, b);
  });

  api.delete('/bookings/:id', (c) => {
    const b = find(c);
    if (!b) return notFound(c);
    const rules = rulesOf(c);
    const errors: FieldErrors = {};
    move(rules, b, rules.cancelled, errors);
    if (Object.keys(errors).length) return invalid(c, errors);
    if (b.status !== rules.cancelled) {
      b.status = rules.cancelled;
      b.updatedAt = isoTime(new Date());
    }
    // Alt: 204 No Content; the booking stays, `canceled`.
    return isAlt(c) ? c.body(null, 204) : one(c, b);
  });
}
