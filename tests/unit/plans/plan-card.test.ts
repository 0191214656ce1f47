import { describe, expect, it } from 'vitest';
import PlanCard from '../../../src/components/plans/PlanCard.astro';
import { planListSchema } from '../../../src/lib/publishing/schema.ts';
import { render } from '../components/render.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// A plan as the publishing API lists it (docs/api-assumptions.md), without its price.
const base = {
  name: 'Enterprise',
  slug: 'enterprise',
  currency: 'USD',
  interval: 'month',
  features: ['Everything'],
  subscribe_url: 'https://pub.example/subscribe/enterprise',
};
const listed = (price: unknown) =>
  planListSchema.parse({ data: [{ ...base, ...(price === undefined ? {} : { price }) }] }).items[0];

describe('a plan the API sends without a readable price', () => {
  it.each([null, undefined, '', '  '])(
    'price %j: the plan is still listed and its card shows no made-up price',
    async (price) => {
      const plan = listed(price);
      expect(plan?.slug).toBe('enterprise');
      if (!plan) return;
      const view = await render(PlanCard, { props: { plan } });
      expect(view.getByRole('heading', { name: 'Enterprise' })).toBeTruthy();
      expect(view.body.textContent).not.toMatch(/USD|NaN|\$/);
      expect(view.getByRole('link', { name: /Subscribe/ }).getAttribute('href')).toBe(
        base.subscribe_url,
      );
    },
  );

  it('a price of 0 is shown as such, with its interval', async () => {
    const plan = listed('0.00');
    if (!plan) throw new Error('not listed');
    const { body } = await render(PlanCard, { props: { plan } });
    expect(body.querySelector('.price')?.textContent?.replace(/\s+/g, ' ').trim()).toMatch(
      /^(US)?\$0\.00 per month$/,
    );
  });
});

describe('the subscribe button, which leaves for the payment provider', () => {
  const card = async (subscribe_url: unknown, locale = 'en-GB') => {
    const plan = planListSchema.parse({ data: [{ ...base, price: '9.00', subscribe_url }] })
      .items[0];
    if (!plan) throw new Error('not listed');
    const locals = { tenant: buildTenant({ locale }) } as App.Locals;
    return render(PlanCard, { props: { plan }, locals });
  };

  it.each([
    ['en-GB', 'Subscribe at pay.example.com for Enterprise'],
    ['de-CH', 'Abonnieren bei pay.example.com: Enterprise'],
    ['fr-FR', 'S’abonner sur pay.example.com\u202f: Enterprise'],
  ])('%s: names the site it goes to', async (locale, text) => {
    const view = await card('https://pay.example.com:8443/checkout?plan=enterprise', locale);
    const link = view.getByRole('link', { name: /pay\.example\.com/ });
    expect(link.textContent).toBe(text);
    expect(link.getAttribute('href')).toBe('https://pay.example.com:8443/checkout?plan=enterprise');
  });

  it.each(['javascript:alert(1)', 'not a url', '/subscribe/enterprise', '', null])(
    'no button for %j',
    async (url) => {
      const view = await card(url);
      expect(view.queryByRole('link', { name: /Subscribe/ })).toBeNull();
      expect(view.body.innerHTML).not.toMatch(/javascript:/);
    },
  );
});
