import { describe, expect, it } from 'vitest';
import PlanCard from '../../../src/components/plans/PlanCard.astro';
import { planListSchema } from '../../../src/lib/publishing/schema.ts';
import { render } from '../components/render.ts';

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
