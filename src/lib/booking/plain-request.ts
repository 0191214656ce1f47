import type { AstroGlobal } from 'astro';
import { i18nFor } from '../i18n/index.ts';
import { localize, localizeFields } from '../i18n/text.ts';
import { bookingTenant } from '../tenants/booking.ts';
import { plainFlow, stepQuery, type PlainState, type PlainView } from './plain-steps.ts';
import { bookingServiceFor } from '../site/clients.ts';
import type { PropertySummary } from './types.ts';

/** What the `bookStay` action answered (details refused, or ready for review), kept between requests. */
export interface StayResult {
  stage: string;
  values?: Record<string, string>;
  fields?: PlainState['errors'];
  message?: string;
}

type PlainAstro = Pick<AstroGlobal, 'locals' | 'url' | 'request' | 'session' | 'redirect'>;

/** The guest's details between the POST and the GET that shows them (one per tenant and browser). */
const draftKey = (tenantId: string) => `booking:plain:${tenantId}`;

/**
 * The booking without JavaScript, POST then redirect then GET: a posted form is kept in the
 * session and answered with a 303 to its step's address, so Back and reload only ever repeat a GET
 * (never "Confirm form resubmission", never a second booking). A booked stay goes to its manage page.
 */
export async function plainRequest(
  Astro: PlainAstro,
  properties: PropertySummary[],
  posted: { stage: 'booked'; manage: string } | StayResult | undefined,
): Promise<PlainView | Response> {
  const { tenant, href } = Astro.locals;
  const key = draftKey(tenant.id);
  if (posted && 'manage' in posted) {
    Astro.session?.delete(key);
    return Astro.redirect(href(posted.manage), 303);
  }
  if (Astro.request.method === 'POST' && posted?.values && Astro.session) {
    Astro.session.set(key, posted);
    const step = posted.stage === 'review' ? 'review' : 'details';
    return Astro.redirect(href(`/stay${stepQuery(searchOf(posted.values), step)}`), 303);
  }
  const wanted = Astro.url.searchParams.get('step');
  const kept =
    Astro.request.method === 'POST'
      ? posted
      : wanted === 'details' || wanted === 'review'
        ? stayResult(await Astro.session?.get(key))
        : undefined;
  // A failed booking's message is said once: a reload shows the review without it.
  if (kept?.message && Astro.request.method === 'GET')
    Astro.session?.set(key, { ...kept, message: '' });
  // Back from the review to the details: the details as typed, without the review's verdict.
  const shown = kept && wanted === 'details' ? { ...kept, stage: 'details' } : kept;
  return plainStay(Astro, properties, shown);
}

/** A kept result as this module wrote it, else nothing (a session of another version). */
function stayResult(stored: unknown): StayResult | undefined {
  if (!stored || typeof stored !== 'object') return undefined;
  const { stage, values } = stored as Partial<StayResult>;
  return typeof stage === 'string' && values && typeof values === 'object'
    ? (stored as StayResult)
    : undefined;
}

/** The search part of posted details, under the names the step addresses use. */
function searchOf(values: Record<string, string>): Record<string, string> {
  const { propertyId = '', checkIn = '', checkOut = '', adults = '', children = '' } = values;
  return {
    property: propertyId,
    checkIn,
    checkOut,
    adults,
    children,
    roomTypeId: values['roomTypeId'] ?? '',
  };
}

/**
 * The plain (no-JavaScript) step to show on /stay: from the query (dates, guests, room), or from
 * the details kept from the last post (their messages, or the review), with the room checked again.
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
  const query = new URLSearchParams({ ...searchOf(values), step: 'details' });
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
