import type { AstroGlobal } from 'astro';
import { deleteIfKept } from '../../delivery/session-keys.ts';
import { i18nFor, type I18n } from '../../i18n/index.ts';
import { localize, localizeFields } from '../../i18n/text.ts';
import { bookingTenant } from '../../tenants/booking.ts';
import { stepFlow, stepQuery, type BookedView, type SearchState, type StepView } from './search.ts';
import { bookingServiceFor } from '../../site/clients.ts';
import type { PropertySummary } from '../domain/types.ts';

/** What the `bookStay` action answered (details refused, or ready for review), kept between requests. */
export interface StayResult {
  stage: string;
  values?: Record<string, string>;
  fields?: SearchState['errors'];
  message?: string;
  /** The message is a wait (busy, down): the same post again may work. */
  retry?: boolean;
  /** Seconds until then. */
  wait?: number;
  /** Refused as the same stay booked moments ago (see `sameStay` in domain/failures.ts). */
  sameStay?: boolean;
}

type StepAstro = Pick<AstroGlobal, 'locals' | 'url' | 'request' | 'session' | 'redirect'>;

/** What the `bookStay` action answers once the stay is booked. */
export interface BookedResult {
  stage: 'booked';
  manage: string;
  mailed: boolean;
  email: string;
  confirmation: BookedView['confirmation'];
}

/** The details between the POST and the GET that shows them (one per tenant and browser). */
const draftKey = (tenantId: string) => `booking:plain:${tenantId}`;

/** Whether a post is answered with a redirect (a browser's form) or with the step in place. */
export interface StepAnswer {
  /** POST, then redirect, then GET: what a form posted by the browser itself needs. */
  redirect: boolean;
  /** Keep the posted details in the session, so the step's address shows them again. */
  keep: boolean;
  /** The language messages are said in (an embed's `data-locale`); the tenant's by default. */
  i18n?: I18n;
}

/** The header `<masthead-booking>` sends: it swaps the step in place and keeps history itself. */
export const STEP_HEADER = 'x-masthead-step';

/** How /stay answers a post: the browser's own form gets a redirect, the element's fetch the step. */
export function stayAnswer(request: Request): StepAnswer {
  return { redirect: request.headers.get(STEP_HEADER) !== '1', keep: true };
}

/**
 * The booking's steps, POST then redirect then GET for a form the browser posts: a posted form is
 * kept in the session and answered with a 303 to its step's address, so Back and reload only ever
 * repeat a GET (never "Confirm form resubmission", never a second booking); a booked stay goes to
 * its manage page. The element's own posts (and the embed, whose frame has no cookie) get the step
 * in place instead.
 */
export async function stepRequest(
  Astro: StepAstro,
  properties: PropertySummary[],
  posted: BookedResult | StayResult | undefined,
  answer: StepAnswer = { redirect: true, keep: true },
): Promise<StepView | Response> {
  const { tenant, href } = Astro.locals;
  const key = draftKey(tenant.id);
  const session = answer.keep ? Astro.session : undefined;
  if (posted && 'manage' in posted) {
    await deleteIfKept(session, key);
    const manage = posted.mailed ? `${posted.manage}?mailed=1` : posted.manage;
    if (answer.redirect) return Astro.redirect(href(manage), 303);
    const { confirmation, mailed, email } = posted;
    return { ...doneView(), booked: { confirmation, manage: posted.manage, mailed, email } };
  }
  // A post the action refused outright (a crafted or oversized form): back to a GET all the same.
  if (Astro.request.method === 'POST' && !posted && answer.redirect)
    return Astro.redirect(href('/stay'), 303);
  if (Astro.request.method === 'POST' && posted?.values) {
    session?.set(key, posted);
    if (answer.redirect && session) {
      const step = posted.stage === 'review' ? 'review' : 'details';
      return Astro.redirect(href(`/stay${stepQuery(searchOf(posted.values), step)}`), 303);
    }
  }
  const wanted = Astro.url.searchParams.get('step');
  const kept =
    Astro.request.method === 'POST'
      ? posted
      : wanted === 'details' || wanted === 'review'
        ? stayResult(await session?.get(key))
        : undefined;
  // A failed booking's message is said once: a reload shows the review without it.
  if (kept?.message && Astro.request.method === 'GET')
    session?.set(key, { ...kept, message: '', retry: false, sameStay: false });
  // Back from the review to the details: the details as typed, without the review's verdict.
  const shown = kept && wanted === 'details' ? { ...kept, stage: 'details' } : kept;
  return stepView(Astro, properties, shown, answer.i18n);
}

const doneView = (): StepView => ({
  step: 'done',
  values: {},
  errors: {},
  offers: null,
  message: '',
});

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
 * The step a booking page shows: from the query (dates, guests, room), or from
 * the details kept from the last post (their messages, or the review), with the room checked again.
 */
export async function stepView(
  Astro: Pick<AstroGlobal, 'locals' | 'url'>,
  properties: PropertySummary[],
  posted: StayResult | undefined,
  i18n: I18n = i18nFor(Astro.locals.tenant),
): Promise<StepView> {
  const view = await searchStep(Astro, properties, posted);
  return {
    ...view,
    errors: localizeFields(i18n, view.errors),
    message: localize(i18n, view.message),
  };
}

async function searchStep(
  Astro: Pick<AstroGlobal, 'locals' | 'url'>,
  properties: PropertySummary[],
  posted: StayResult | undefined,
): Promise<StepView> {
  const tenant = bookingTenant(Astro.locals);
  const first = properties[0]?.id ?? '';
  if (!tenant) return { step: 'dates', values: {}, errors: {}, offers: null, message: '' };
  const service = bookingServiceFor(tenant);
  if (!posted?.values) {
    const flow = await stepFlow(Astro.url.searchParams, service, first);
    return { ...flow, message: flow.message ?? '', retry: flow.retry ?? false };
  }
  const values = posted.values;
  const query = new URLSearchParams({ ...searchOf(values), step: 'details' });
  const search = await stepFlow(query, service, first);
  if (search.step !== 'details')
    return {
      ...search,
      message: search.message ?? posted.message ?? '',
      retry: search.retry ?? false,
    };
  return {
    step:
      posted.stage === 'review' && posted.fields && Object.keys(posted.fields).length === 0
        ? 'review'
        : 'details',
    values: { ...search.values, ...values },
    errors: posted.fields ?? {},
    offers: search.offers,
    message: posted.message ?? '',
    retry: posted.retry ?? false,
    wait: posted.wait ?? 0,
    sameStay: posted.sameStay === true,
  };
}
