import { standing } from '../auth/account.ts';
import type { SignedIn } from '../auth/session.ts';
import { warmEditions } from '../images/prewarm.ts';
import { logWarn } from '../log/log.ts';
import type { Edition, EditionPage, Plan } from '../publishing/schema.ts';
import { publishingFor } from '../services/clients.ts';
import type { PublishingClient } from '../publishing/client.ts';
import { unlessRefused } from '../reading/loaders.ts';
import { epaperOffer } from './paywall.ts';
import { readablePages } from './reader.ts';
import type { Tenant } from '../tenants/schema.ts';
import { classify, isSignedOut } from '../failures/classify.ts';
import type { Paged } from '../upstream/parse.ts';

export const EDITIONS_PER_PAGE = 12;

/** The edition list, newest first (anonymous: the same list for every visitor). */
export async function loadEditions(tenant: Tenant, page: number): Promise<Paged<Edition>> {
  const list = await publishingFor(tenant).listEditions({ page, perPage: EDITIONS_PER_PAGE });
  const items = [...list.items].sort((a, b) =>
    (b.published_at ?? '').localeCompare(a.published_at ?? ''),
  );
  // The newest editions' covers and first pages, made before their first readers open them.
  if (page === 1) warmEditions(tenant, items);
  return { ...list, items };
}

export type ReaderData =
  | {
      kind: 'reader';
      edition: Edition;
      pages: EditionPage[];
      /**
       * `public`: the anonymous response (free edition): cacheable by everyone. `private`: read with
       * the visitor's token: must never be stored by a shared or route cache.
       */
      cache: 'public' | 'private';
      /**
       * The session's account once this read showed it is behind (a subscription bought since
       * sign-in): the page keeps it, so the header stops offering "Subscribe".
       */
      signedIn?: SignedIn;
    }
  | {
      kind: 'paywall';
      edition: Edition;
      /** The plans that unlock the e-paper, the one to lead with first (see `epaperOffer`). */
      plans: Plan[];
      /** The signed-in subscriber (without access), or null for an anonymous visitor. */
      signedIn: SignedIn | null;
      /**
       * The session's token was refused (revoked or expired upstream): the page forgets the
       * sign-in, or "Log in" would only lead back here (the login page passes the signed-in on).
       */
      expired: boolean;
      /** Always private: the answer depends on the session. */
      cache: 'private';
    };

/**
 * One edition for the reader. The anonymous copy is asked first (shared cache); only when it
 * requires a subscription is the session read (`readSession`), and with a signed-in subscriber the
 * edition is asked again with their token. Page images of a paid edition therefore only ever come
 * from a response for this user's token. Unknown slug → `NotFoundError`. The plans start with the
 * edition (one round trip for a cold page, paywall or not).
 */
export async function loadReader(
  tenant: Tenant,
  slug: string,
  readSession: () => Promise<SignedIn | null>,
  /** Off where no paywall is shown (a page picture): no plan list is read then. */
  { plans: withPlans = true } = {},
): Promise<ReaderData> {
  const plans = withPlans ? publishingFor(tenant).listPlans() : Promise.resolve([]);
  // Only a paywall awaits the plans; a free edition leaves them (and their failure) to the cache.
  plans.catch(() => undefined);
  const anonymous = await publishingFor(tenant).getEdition(slug);
  if (!anonymous.requires_subscription) {
    return { kind: 'reader', edition: anonymous, pages: readablePages(anonymous), cache: 'public' };
  }
  let signedIn = await readSession();
  let expired = false;
  try {
    const personal =
      signedIn && (await personalEdition(publishingFor(tenant, signedIn.token), slug));
    if (signedIn && personal && !personal.requires_subscription) {
      const pages = readablePages(personal);
      const reader = { kind: 'reader', edition: personal, pages, cache: 'private' } as const;
      if (standing(signedIn.user) !== 'free') return reader;
      const user = { ...signedIn.user, hasActiveSubscription: true };
      return { ...reader, signedIn: { ...signedIn, user } };
    }
  } catch (error) {
    // A revoked or expired token: show the paywall with its "Log in" link instead of an error.
    if (!isSignedOut(classify(error))) throw error;
    logWarn('epaper.token.rejected', { tenant: tenant.id });
    signedIn = null;
    expired = true;
  }
  const offer = await paywallPlans(tenant, plans);
  return { kind: 'paywall', edition: anonymous, plans: offer, signedIn, expired, cache: 'private' };
}

/**
 * The signed-in reader's edition. A kept "subscription required" is asked again: they may have
 * just subscribed (on the plan's `subscribe_url`) and must not meet the paywall for the cache's
 * lifetime. While the API is unreachable the kept answer stands.
 */
async function personalEdition(client: PublishingClient, slug: string): Promise<Edition> {
  const kept = await client.getEdition(slug);
  if (!kept.requires_subscription) return kept;
  return unlessRefused(() => client.getEdition(slug, { fresh: true }), kept);
}

/** The e-paper plans for the paywall; an outage leaves the list empty (the paywall links to /plans). */
async function paywallPlans(tenant: Tenant, plans: Promise<Plan[]>): Promise<Plan[]> {
  const listed = await unlessRefused(
    () => plans,
    null,
    () => logWarn('epaper.plans.unavailable', { tenant: tenant.id }),
  );
  const offer = listed && epaperOffer(listed, tenant.publishing.epaperPlans);
  if (offer?.length === 0) logWarn('epaper.plans.none', { tenant: tenant.id });
  return offer ?? [];
}
