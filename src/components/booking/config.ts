import { countryOptions } from '../../lib/booking/countries.ts';
import { todayIn } from '../../lib/booking/dates.ts';
import { detailsPresentation } from '../../lib/booking/rules.ts';
import type { Tenant } from '../../lib/tenants/schema.ts';
import type { PropertySummary } from '../../lib/booking/types.ts';
import type { BookingConfig } from './booking.store.ts';

/** Server side of `<BookingWidget>`: the JSON config and the lists the markup needs. */
export function widgetModel(
  tenant: Tenant,
  properties: PropertySummary[],
  initial: BookingConfig['initial'] = {},
  locale: string = tenant.locale,
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
    countries: countryOptions(locale),
    capacity,
    today: config.today,
    minNights: config.minNights,
    maxNights: config.maxNights,
    details: detailsPresentation(config.fields),
  };
}
