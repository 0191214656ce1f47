import { describe, expect, it, vi } from 'vitest';
import { stepRequest } from '../../../src/lib/booking/steps/page.ts';
import { STEP_HEADER } from '../../../src/lib/booking/steps/address.ts';
import type { StepState } from '../../../src/lib/booking/steps/flow.ts';
import { confirmation, config } from '../../fixtures/booking.ts';

/** The page's view of a request: what stepRequest reads, and a redirect it can be seen to make. */
function astro(method: string, headers: Record<string, string> = {}) {
  const deleted = vi.fn();
  const kept = vi.fn();
  // A visitor whose session holds a draft (one without a session keeps none: session-store.ts).
  const session = {
    get: vi.fn(),
    set: kept,
    has: vi.fn(() => Promise.resolve(true)),
    delete: deleted,
  };
  const page = {
    locals: { tenant: { id: 'harbour-times' }, href: (path: string) => `/harbour-times${path}` },
    url: new URL('http://site.test/harbour-times/stay'),
    request: new Request('http://site.test/harbour-times/stay', { method, headers }),
    session,
    redirect: (to: string, status: number) =>
      new Response(null, { status, headers: { Location: to } }),
  } as unknown as Parameters<typeof stepRequest>[0];
  return { page, deleted, kept };
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
    const { page, deleted } = astro('POST');
    const answer = await stepRequest(page, config.properties, booked);
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/harbour-times/stay/manage/token.sig?mailed=1');
    expect(deleted).toHaveBeenCalled();
  });

  it('shows the booked stay in place when asked to (the widget, the embed’s frame)', async () => {
    const { page, deleted } = astro('POST', { [STEP_HEADER]: '1' });
    const view = await stepRequest(page, config.properties, booked, {
      redirect: false,
      keep: false,
    });
    expect(view).toMatchObject({
      step: 'done',
      booked: { manage: '/stay/manage/token.sig', mailed: true, confirmation },
    });
    expect(deleted).not.toHaveBeenCalled();
  });

  it('a refused post (the same stay booked moments ago) is kept for the GET its redirect leads to', async () => {
    const { page, kept } = astro('POST');
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
    expect(kept).toHaveBeenCalledWith('booking:drafts:harbour-times', [
      { search: expect.stringContaining('checkIn=2099-03-28') as unknown, state: refused },
    ]);
  });

  it('a post the action refused outright is answered with a redirect too, never a page to re-post', async () => {
    const { page } = astro('POST');
    const answer = (await stepRequest(page, config.properties, undefined)) as Response;
    expect(answer.status).toBe(303);
    expect(answer.headers.get('Location')).toBe('/harbour-times/stay');
  });
});
