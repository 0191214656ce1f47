import type { Plan } from '../publishing/schema.ts';

/**
 * The plans the e-paper paywall offers: those the tenant names in `publishing.epaperPlans`, in that
 * order (the first leads), that the API still lists. Plans without the e-paper are left to /plans.
 */
export function epaperOffer(plans: readonly Plan[], epaperPlans: readonly string[]): Plan[] {
  const bySlug = new Map(plans.map((plan) => [plan.slug, plan]));
  return epaperPlans.flatMap((slug) => bySlug.get(slug) ?? []);
}
