import type { AstroGlobal } from 'astro';
import { i18nFor } from '../i18n/index.ts';
import { localize, localizeFields } from '../i18n/text.ts';
import { bookingTenant } from '../tenants/booking.ts';
import { plainFlow, type PlainState, type PlainView } from './plain-flow.ts';
import { bookingServiceFor } from '../site/clients.ts';
import type { PropertySummary } from './types.ts';

/** What the `bookStay` action answered (details refused, or ready for review). */
interface StayResult {
  stage: string;
  values?: Record<string, string>;
  fields?: PlainState['errors'];
  message?: string;
}

/**
 * The plain (no-JavaScript) step to show on /stay: from the query (dates, guests, room), or from
 * the details just posted (their messages, or the review), with the room checked again.
 */
export async function plainStay(
  Astro: Pick<AstroGlobal, 'locals' | 'url'>,
  properties: PropertySummary[],
  posted: StayResult | undefined,
): Promise<PlainView> {
  const view = await plainStep(Astro, properties, posted);
  const i18n = i18nFor(Astro.locals.tenant);
  return {
    ...view,
    errors: localizeFields(i18n, view.errors),
    message: localize(i18n, view.message),
  };
}

async function plainStep(
  Astro: Pick<AstroGlobal, 'locals' | 'url'>,
  properties: PropertySummary[],
  posted: StayResult | undefined,
): Promise<PlainView> {
  const tenant = bookingTenant(Astro.locals);
  const first = properties[0]?.id ?? '';
  if (!tenant) return { step: 'dates', values: {}, errors: {}, offers: null, message: '' };
  const service = bookingServiceFor(tenant);
  if (!posted?.values) {
    return { ...(await plainFlow(Astro.url.searchParams, service, first)), message: '' };
  }
  const values = posted.values;
  const query = new URLSearchParams({
    step: 'details',
    property: values['propertyId'] ?? '',
    checkIn: values['checkIn'] ?? '',
    checkOut: values['checkOut'] ?? '',
    adults: values['adults'] ?? '',
    children: values['children'] ?? '',
    roomTypeId: values['roomTypeId'] ?? '',
  });
  const search = await plainFlow(query, service, first);
  if (search.step !== 'details') return { ...search, message: posted.message ?? '' };
  return {
    step:
      posted.stage === 'review' && posted.fields && Object.keys(posted.fields).length === 0
        ? 'review'
        : 'details',
    values: { ...search.values, ...values },
    errors: posted.fields ?? {},
    offers: search.offers,
    message: posted.message ?? '',
  };
}
