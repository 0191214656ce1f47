import { describe, expect, it } from 'vitest';
import { epaperOffer } from '../../../src/lib/epaper/paywall.ts';
import { planSchema, type Plan } from '../../../src/lib/publishing/schema.ts';

const plan = (slug: string): Plan =>
  planSchema.parse({
    slug,
    name: slug,
    description: '',
    price: '1.00',
    currency: 'USD',
    interval: 'month',
  });
// The API's order: a plan without the e-paper comes first.
const plans = [plan('digital'), plan('digital-epaper'), plan('annual')];

describe('epaperOffer: the paywall leads with the plan that unlocks the e-paper', () => {
  it.each([
    [
      ['digital-epaper', 'annual'],
      ['digital-epaper', 'annual'],
    ],
    [
      ['annual', 'digital-epaper'],
      ['annual', 'digital-epaper'],
    ],
    [['retired', 'digital-epaper'], ['digital-epaper']],
    [[], []],
  ])('tenant names %j → offers %j', (named, expected) => {
    expect(epaperOffer(plans, named).map((p) => p.slug)).toEqual(expected);
  });

  it('never offers a plan without the e-paper', () => {
    expect(epaperOffer(plans, ['digital-epaper']).map((p) => p.slug)).not.toContain('digital');
  });
});
