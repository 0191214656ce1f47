import { describe, expect, it, vi } from 'vitest';
import { stepRequest } from '../../../src/lib/booking/steps/page.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { STEP_HEADER } from '../../../src/lib/booking/steps/address.ts';
import { NO_STORE } from '../../../src/lib/delivery/policy.ts';
import type { StepState } from '../../../src/lib/booking/steps/flow.ts';
import { confirmation, config } from '../../fixtures/booking.ts';

/** The page's view of a request: what stepRequest reads. */
function astro(method: string, headers: Record<string, string> = {}, query = '') {
  const deleted = vi.fn();
  const kept = vi.fn();
  const cookie = vi.fn();
  // A visitor whose session holds a draft (one without a session keeps none: session-store.ts).
  const session = {
    get: vi.fn(),
    set: kept,
    has: vi.fn(() => Promise.resolve(true)),
    delete: deleted,
  };
  const request = new Request(`http://site.test/harbour-times/stay${query}`, { method, headers });
  const page = {
    locals: {
      tenant: { id: 'harbour-times', locale: 'en-GB', timeZone: 'UTC' },
      href: (path: string) => `/harbour-times${path}`,
    },
    url: new URL(`http://site.test/harbour-times/stay${query}`),
    request,
    session,
    // What Astro's cookies read: the request's Cookie header.
    cookies: {
      set: cookie,
      has: (name: string) => request.headers.get('cookie')?.includes(`${name}=`),
    },
  } as unknown as Parameters<typeof stepRequest>[0];
  return { page, deleted, kept, cookie };
}

const booked: StepState = {
  step: 'done',
  values: {},
  errors: {},
  offers: null,
  message: '',
  booked: {
    manage: '/stay/manage/token.sig',
    mailed: true,
    email: 'ada@example.com',
    confirmation,
  },
};

describe('how a booking page answers a post', () => {
  it('answers the browser’s own form with a redirect, and the widget’s fetch in place', async () => {
    expect(await stepRequest(astro('POST').page, config.properties, booked)).toBeInstanceOf(
      Response,
    );
    const fetched = astro('POST', { [STEP_HEADER]: '1' }).page;
    expect(await stepRequest(fetched, config.properties, booked)).toMatchObject({ step: 'done' });
  });

  it('sends a booked stay to its manage page when redirecting (saying the e-mail went out)', async () => {
    const { page, kept } = astro('POST');
    const answer = await stepRequest(page, config.properties, booked);
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/harbour-times/stay/manage/token.sig?mailed=1');
    // Before: Astro.redirect's bare 303, which a browser or cache in between may keep and replay.
    expect(response.headers.get('Cache-Control')).toBe(NO_STORE);
    // Kept as booked: Back to its review is sent there too.
    expect(kept).toHaveBeenCalledWith('booking:drafts:harbour-times', [
      { search: expect.any(String) as unknown, state: booked },
    ]);
  });

  it('shows the booked stay in place when asked to (the widget, the embed’s frame)', async () => {
    const { page, deleted } = astro('POST', { [STEP_HEADER]: '1' });
    const view = await stepRequest(page, config.properties, booked, createI18n('en-GB', 'UTC'));
    expect(view).toMatchObject({
      step: 'done',
      booked: { manage: '/stay/manage/token.sig', mailed: true, confirmation },
    });
    expect(deleted).not.toHaveBeenCalled();
  });

  it('a refused post (the same stay booked moments ago) is kept for the GET its redirect leads to', async () => {
    const { page, kept } = astro('POST', { cookie: 'masthead-cookies=1' });
    const refused: StepState = {
      step: 'review',
      values: { propertyId: 'p', checkIn: '2099-03-28', checkOut: '2099-03-30', adults: '2' },
      errors: {},
      offers: null,
      message: 'booked moments ago',
      retry: false,
      sameStay: true,
    };
    const answer = (await stepRequest(page, config.properties, refused)) as Response;
    expect(answer.status).toBe(303);
    expect(answer.headers.get('Location')).toMatch(/^\/harbour-times\/stay\?step=review&/);
    expect(answer.headers.get('Cache-Control')).toBe(NO_STORE);
    expect(kept).toHaveBeenCalledWith('booking:drafts:harbour-times', [
      { search: expect.stringContaining('checkIn=2099-03-28') as unknown, state: refused },
    ]);
  });

  it('a post from a browser that sent back no cookie is answered in place: a redirect would lose it', async () => {
    const { page, kept } = astro('POST');
    const review: StepState = {
      step: 'review',
      values: {
        propertyId: 'p',
        checkIn: '2099-03-28',
        checkOut: '2099-03-30',
        lastName: 'Franklin',
      },
      errors: {},
      offers: null,
      message: '',
    };
    const answer = await stepRequest(page, config.properties, review);
    // The step is rendered from the post itself (tests/e2e/booking-flow.spec.ts shows it).
    expect(answer).not.toBeInstanceOf(Response);
    expect(kept).toHaveBeenCalled();
  });

  it('the details step sets the cookie its post sends back, once', async () => {
    const first = astro('GET', {}, '?step=details');
    await stepRequest(first.page, config.properties, undefined);
    expect(first.cookie).toHaveBeenCalledWith('masthead-cookies', '1', expect.anything());
    const again = astro('GET', { cookie: 'masthead-cookies=1' }, '?step=details');
    await stepRequest(again.page, config.properties, undefined);
    expect(again.cookie).not.toHaveBeenCalled();
  });

  it('a post the action refused outright is answered with a redirect too, never a page to re-post', async () => {
    const { page } = astro('POST');
    const answer = (await stepRequest(page, config.properties, undefined)) as Response;
    expect(answer.status).toBe(303);
    expect(answer.headers.get('Location')).toBe('/harbour-times/stay');
    expect(answer.headers.get('Cache-Control')).toBe(NO_STORE);
  });
});
