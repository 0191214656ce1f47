import { settings } from '../../settings/settings.ts';
import type { Booking } from '../../lodging/schema.ts';
import { logWarn } from '../../log/log.ts';
import { bookingTenant } from '../../tenants/booking.ts';
import { orNotOnline, refusal, toFailure, type NotOnline } from '../domain/failures.ts';
import { stayZone } from '../domain/dates.ts';
import { stayBegun } from '../domain/rules.ts';
import { textKey } from '../../i18n/text-key.ts';
import { classify } from '../../failures/classify.ts';
import { linkSecret, signManageToken, verifyManageToken, type ManagedBooking } from './link.ts';
import { bookingServiceFor } from '../../services/clients.ts';
import type { BookingService } from '../service/service.ts';
import { tenantUrl } from '../../tenants/origin.ts';
import {
  confirmationOf,
  type Confirmation,
  type PropertySummary,
} from '../service/lodging-shapes.ts';

const { BOOKING_LINK_SECRET } = settings();

/** The "manage your booking" side: signed links, the booking they name, and its cancellation. */

/** A booked stay as its manage page shows it: the confirmation's facts, asked fresh. */
export type ManagedStay = Confirmation & {
  property: PropertySummary;
  /** The check-in day has begun where the property is: no longer cancelled online. */
  begun?: boolean;
};

const secret = () =>
  linkSecret(BOOKING_LINK_SECRET, () =>
    logWarn('booking.link_secret_missing', {
      note: 'BOOKING_LINK_SECRET is unset: manage links work until this process restarts',
    }),
  );

/** The private path (without tenant prefix) of a booking's manage page. */
export const managePath = (tenantId: string, booking: ManagedBooking): string =>
  `/stay/manage/${signManageToken(secret(), tenantId, booking)}`;

/** The stay as a confirmation shows it; what the booking does not say, as the API's defaults. */
function stayOf(service: BookingService, property: PropertySummary, booking: Booking): ManagedStay {
  const fallback = { roomTypeId: '', adults: 1, children: 0 };
  const stay = confirmationOf(property, booking, fallback).value;
  return {
    ...stay,
    property,
    begun: stayBegun(stay.checkIn, stayZone(property, service.tenant)),
  };
}

type Locals = Pick<App.Locals, 'tenantMatchOrNull'>;

const cancelRefused = () => refusal(409, 'bad_request', textKey('manage.cancelRefused'));

/**
 * `act` on the booking a token names, when the token is valid here (not another tenant's) and names
 * a property this tenant lists; else null (a 404 to the visitor).
 */
function withToken<T>(
  locals: Locals,
  token: string,
  act: (service: BookingService, named: ManagedBooking) => Promise<T | null>,
): Promise<T | null> {
  const tenant = bookingTenant(locals);
  const named = tenant ? verifyManageToken(secret(), tenant.id, token) : null;
  if (!tenant || !named || !tenant.lodging.propertyIds.includes(named.propertyId))
    return Promise.resolve(null);
  return act(bookingServiceFor(tenant), named);
}

/**
 * The stay a token names, asked fresh from the lodging API; null as in `withToken`, or when gone;
 * "not available online" when the lodging API's property cannot be used (as on /stay).
 */
export const loadManagedStay = (locals: Locals, token: string) =>
  withToken(locals, token, async (service, named): Promise<ManagedStay | NotOnline | null> => {
    const context = { tenant: service.tenant.id, operation: 'manage.find' };
    // A token the lodging API refuses: "book directly" with the contact, as on /stay.
    const found = service.namedBooking(named).then(
      (booking) => ({ booking }),
      (error: unknown) => {
        throw toFailure(error, context, service.tenant.lodging?.contact);
      },
    );
    const [property, lookup] = await Promise.all([
      orNotOnline(service.property(named.propertyId)),
      orNotOnline(found),
    ]);
    if ('kind' in lookup) return lookup;
    if (!lookup.booking) return null;
    return 'kind' in property ? property : stayOf(service, property, lookup.booking);
  });

/** Cancels the stay a token names; the stay as it is afterwards, or null as in `loadManagedStay`. */
export const cancelManagedStay = (locals: Locals, token: string) =>
  withToken(locals, token, async (service, named) => {
    try {
      const booking = await service.namedBooking(named);
      if (!booking) return null;
      const property = await service.property(named.propertyId);
      const before = stayOf(service, property, booking);
      if (before.statusKind === 'cancelled') return before;
      // A tab opened the day before still shows the button: the check-in day decides, not the page.
      if (before.begun) throw refusal(409, 'bad_request', textKey('manage.begun'));
      // Checked in, no-show, or another word of the API's meanwhile: the hotel's to change.
      if (before.statusKind === 'other') throw cancelRefused();
      const cancelled = await service.cancelBooking(String(booking.id)).catch((error: unknown) => {
        // The lodging API refused this cancel (422): its reason is its own, the guest asks the hotel.
        if (classify(error).kind === 'invalid') throw cancelRefused();
        throw error;
      });
      const after = cancelled ?? (await service.namedBooking(named)) ?? booking;
      const bookUrl = tenantUrl(locals.tenantMatchOrNull, '/stay');
      const site = tenantUrl(locals.tenantMatchOrNull, '/');
      // The guest hears of it by e-mail too (once; after the answer, which it never delays).
      if (bookUrl && site)
        void service.mailCancellation({ booking, place: property, bookUrl, site });
      return stayOf(service, property, after);
    } catch (error) {
      const context = { tenant: service.tenant.id, operation: 'manage.cancel' };
      throw toFailure(error, context, service.tenant.lodging?.contact, 'cancel');
    }
  });
