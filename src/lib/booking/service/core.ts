import type { LodgingClient } from '../../lodging/client.ts';
import type { BookingTenant } from '../../tenants/booking.ts';
import type { KeyedLock } from '../../upstream/lock.ts';
import type { StayRules } from '../domain/dates.ts';
import type { PropertySummary } from '../domain/types.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AttemptStore } from './idempotency.ts';
import type { Read } from './lodging-shapes.ts';

/**
 * What the booking service's parts share (service.ts builds it once per tenant): the creation
 * (create.ts), the e-mails (mail/send.ts) and "find my booking" (manage/find.ts) take it.
 */
export interface ServiceCore {
  tenant: BookingTenant;
  lodging: BookingTenant['lodging'];
  /** The tenant's lodging client (the only holder of its credentials). */
  lodgingApi: () => LodgingClient;
  attempts: AttemptStore;
  /** Creating a booking is single-flight per stay (across instances with Redis). */
  lock: KeyedLock;
  rules: () => StayRules;
  mailer: Mailer | undefined;
  context: (operation: string) => { tenant: string; operation: string };
  property: (id: string) => Promise<PropertySummary>;
  /** A read the step cannot do without refused as "not online", its missing fields reported. */
  usable: <T>(operation: string, read: Read<T>, effect: string) => T;
  /** The next search of `propertyId` skips the read cache once (a booking changed it). */
  booked: (propertyId: string) => void;
  /** The tenant's online-requests guest record (see guests.ts), made or found once per process. */
  onlineRequests: (api: LodgingClient, requesterPhone: string) => Promise<string>;
  onlineRequestsEmail: string;
}
