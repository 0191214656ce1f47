import { todayIn } from './dates.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { PropertySummary } from './types.ts';
import type { BookingConfig } from './browser/booking.store.ts';

/** Server side of `<BookingWidget>`: the JSON config and the lists the markup needs. */
export function widgetModel(
  tenant: Tenant,
  properties: PropertySummary[],
  initial: BookingConfig['initial'] = {},
) {
  const lodging = tenant.lodging;
  const config: BookingConfig = {
    properties,
    timeZone: tenant.timeZone,
    today: todayIn(tenant.timeZone),
    minNights: lodging?.minNights ?? 1,
    maxNights: lodging?.maxNights ?? 30,
    fields: lodging?.fields ?? {},
    initial,
  };
  const capacity = properties.find((p) => p.id === initial.propertyId)?.capacity ??
    properties[0]?.capacity ?? { maxAdults: 4, maxChildren: 4, maxOccupancy: 4 };
  return {
    config: JSON.stringify(config),
    capacity,
    today: config.today,
    minNights: config.minNights,
    maxNights: config.maxNights,
  };
}
