import type { AstroGlobal } from 'astro';
import { isRecord } from '../../content/records.ts';
import { uncachedRedirect } from '../../delivery/policy.ts';
import { i18nFor, type I18n } from '../../i18n/index.ts';
import { localize, localizeFields } from '../../i18n/text.ts';
import { bookingTenant } from '../../tenants/booking.ts';
import { STEP_HEADER } from './address.ts';
import { STEP, stepFlow, stepQuery, type StepState } from './flow.ts';
import { orNotOnline, type NotOnline } from '../domain/failures.ts';
import { hasErrors } from '../domain/rules.ts';
import { bookingServiceFor } from '../../services/clients.ts';
import type { PropertySummary } from '../service/lodging-shapes.ts';

/** What the booking pages show: the widget, or "not available online" with whom to contact. */
export type StayContent = { kind: 'widget'; properties: PropertySummary[] } | NotOnline;

/** The on-site pages' loader: the tenant's properties, or null when booking is off here. */
export async function loadStay(Astro: Pick<AstroGlobal, 'locals'>): Promise<StayContent | null> {
  const tenant = bookingTenant(Astro.locals);
  if (!tenant) return null;
  const load = bookingServiceFor(tenant).properties();
  return orNotOnline(load.then((properties): StayContent => ({ kind: 'widget', properties })));
}

type StepAstro = Pick<AstroGlobal, 'locals' | 'url' | 'request' | 'session' | 'cookies'>;

/**
 * A cookie the details step sets: a post that does not send it back comes from a browser that
 * keeps no cookie, whose session (and draft) a redirect would lose, so it gets the step in place.
 */
const COOKIE_CHECK = 'masthead-cookies';

/**
 * What the `bookStay` action answered, kept between its POST and the GET that shows it: one draft
 * per stay searched (the step address's search), so two tabs booking two stays keep both.
 */
const draftKey = (tenantId: string) => `booking:drafts:${tenantId}`;
/** Drafts kept per visitor and tenant, the latest first. */
const DRAFTS_KEPT = 4;
type Drafts = { search: string; state: StepState }[];
/** The search a draft belongs to, as its step address says it (any step name: only fields count). */
const searchKey = (values: Record<string, string>): string => stepQuery(values, 'details');

/**
 * POST → 303 → GET for a form the browser posts (kept in the session, so Back and reload only
 * repeat a GET); a booked stay goes to its manage page. The element's posts (its `STEP_HEADER`)
 * get the step in place instead; so does the embed (`embedded`: its language), whose frame has no
 * cookie, so nothing of it is kept in a session.
 */
export async function stepRequest(
  Astro: StepAstro,
  properties: PropertySummary[],
  posted: StepState | undefined,
  embedded?: I18n,
): Promise<StepState | Response> {
  const redirect = !embedded && Astro.request.headers.get(STEP_HEADER) !== '1';
  const { tenant, href } = Astro.locals;
  const key = draftKey(tenant.id);
  const session = embedded ? undefined : Astro.session;
  const { method } = Astro.request;
  /** A booked stay: its manage page for a browser's form, the confirmation step for the element. */
  const confirm = (done: StepState, { manage, mailed }: NonNullable<StepState['booked']>) =>
    redirect ? uncachedRedirect(303, href(mailed ? `${manage}?mailed=1` : manage)) : done;
  if (posted?.booked) {
    const { confirmation: c } = posted.booked;
    const { checkIn, checkOut, roomTypeId } = c;
    const party = { adults: String(c.adults), children: String(c.children) };
    const search = searchKey({ property: c.propertyId, checkIn, checkOut, roomTypeId, ...party });
    const others = (await draftsOf(session, key)).filter((draft) => draft.search !== search);
    // Kept as booked: Back to its review shows the confirmation, not the Book button again.
    session?.set(key, [{ search, state: posted }, ...others].slice(0, DRAFTS_KEPT));
    return confirm(posted, posted.booked);
  }
  // A post the action refused outright (a crafted or oversized form): back to a GET all the same.
  if (method === 'POST' && !posted && redirect) return uncachedRedirect(303, href('/stay'));
  const wanted = Astro.url.searchParams.get('step');
  // Only a post and the posted steps' addresses show a kept draft.
  const drafted = method === 'POST' || wanted === 'details' || wanted === 'review';
  const drafts = drafted ? await draftsOf(session, key) : [];
  if (method === 'GET' && wanted === 'details' && session && !Astro.cookies.has(COOKIE_CHECK))
    Astro.cookies.set(COOKIE_CHECK, '1', { path: '/', httpOnly: true, sameSite: 'lax' });
  /** Keeps `state` as the draft of its own search, in front of the others. */
  const keep = (state: StepState) => {
    const search = searchKey(searchOf(state.values));
    const others = drafts.filter((draft) => draft.search !== search);
    session?.set(key, [{ search, state }, ...others].slice(0, DRAFTS_KEPT));
  };
  if (method === 'POST' && posted) {
    keep(posted);
    // Without cookies a reload of the step asks to send the form again: better than an empty form.
    if (redirect && session && Astro.cookies.has(COOKIE_CHECK)) {
      const step = posted.step === 'review' ? 'review' : 'details';
      return uncachedRedirect(303, href(`/stay${stepQuery(searchOf(posted.values), step)}`));
    }
  }
  const kept = method === 'POST' ? posted : draftFor(drafts, Astro.url);
  if (kept?.booked) return confirm(kept, kept.booked);
  // A failed booking's message is said once: a reload shows the review without it.
  const unsaid = kept && { ...kept, message: '', retry: false, sameStay: false };
  if (kept?.message && unsaid && method === 'GET') keep(unsaid);
  // Back from the review to the details: the details as typed, without the review's verdict.
  const shown = unsaid && wanted === 'details' ? { ...unsaid, step: 'details' as const } : kept;
  const view = await searchStep(Astro, properties, shown);
  const i18n = embedded ?? i18nFor(tenant);
  return {
    ...view,
    errors: localizeFields(i18n, view.errors),
    message: localize(i18n, view.message),
  };
}

/**
 * The draft of the stay `url` names (another tab's stay is not this one's). On the details step, one
 * for another room of the same stay will do (that room went meanwhile and the guest chose this
 * one): its details as typed, under the room chosen now and with a new key (another booking).
 */
function draftFor(kept: Drafts, url: URL): StepState | undefined {
  const query = Object.fromEntries(url.searchParams);
  // A booked stay's draft answers only its review's address (Back after Book).
  const drafts = query['step'] === 'review' ? kept : kept.filter((draft) => !draft.state.booked);
  const exact = drafts.find((draft) => draft.search === searchKey(query));
  if (exact || query['step'] !== 'details') return exact?.state;
  const stay = (values: Record<string, string>) => searchKey({ ...values, roomTypeId: '' });
  const other = drafts.find((draft) => stay(searchOf(draft.state.values)) === stay(query));
  if (!other) return undefined;
  const roomTypeId = query['roomTypeId'] ?? '';
  const values = { ...other.state.values, roomTypeId, idempotencyKey: '' };
  return { ...other.state, step: 'details', values, errors: {}, message: '', sameStay: false };
}

/** The visitor's kept drafts (none without a session), as this module wrote them (not another version). */
async function draftsOf(session: StepAstro['session'] | undefined, key: string): Promise<Drafts> {
  const stored: unknown = await session?.get(key);
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (draft): draft is Drafts[number] =>
      isRecord(draft) &&
      typeof draft['search'] === 'string' &&
      isRecord(draft['state']) &&
      typeof draft['state']['step'] === 'string' &&
      isRecord(draft['state']['values']) &&
      isRecord(draft['state']['errors']),
  );
}

/** Posted details under the names the step addresses use (they read only the search's fields). */
const searchOf = (values: Record<string, string>) => ({
  ...values,
  property: values['propertyId'] ?? '',
});

/** The step from the query, or from the details kept from the last post (room checked again). */
async function searchStep(
  Astro: Pick<AstroGlobal, 'locals' | 'url'>,
  properties: PropertySummary[],
  posted: StepState | undefined,
): Promise<StepState> {
  const tenant = bookingTenant(Astro.locals);
  const first = properties[0]?.id ?? '';
  if (!tenant) return { step: 'dates', values: {}, errors: {}, offers: null, message: '' };
  const service = bookingServiceFor(tenant);
  if (!posted) return { retry: false, ...(await stepFlow(Astro.url.searchParams, service, first)) };
  const query = new URLSearchParams({ ...searchOf(posted.values), step: 'details' });
  const search = await stepFlow(query, service, first);
  if (search.step !== 'details')
    return { ...search, message: search.message || posted.message, retry: search.retry ?? false };
  // A refusal on a field the details do not show (the lodging API's own rule, its `form`): said.
  const shownFields: readonly string[] = STEP.details.fields;
  const unseen = Object.entries(posted.errors).find(([name]) => !shownFields.includes(name));
  return {
    ...posted,
    message: posted.message || (unseen?.[1][0] ?? ''),
    step: posted.step === 'review' && !hasErrors(posted.errors) ? 'review' : 'details',
    values: { ...search.values, ...posted.values },
    offers: search.offers,
    retry: posted.retry ?? false,
    wait: posted.wait ?? 0,
    sameStay: posted.sameStay === true,
  };
}
