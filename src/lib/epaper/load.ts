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
      /** `private`: read with the visitor's token, never stored by a shared or route cache. */
      cache: 'public' | 'private';
      /** The account, when this read showed the session's is behind (subscribed since sign-in). */
      signedIn?: SignedIn;
    }
  | {
      kind: 'paywall';
      edition: Edition;
      /** The plans that unlock the e-paper, the one to lead with first (see `epaperOffer`). */
      plans: Plan[];
      signedIn: SignedIn | null;
      /** The session's token was refused upstream: the page forgets the sign-in. */
      expired: boolean;
      cache: 'private';
    };

/**
 * One edition for the reader: the anonymous copy first (shared cache); only when it requires a
 * subscription is the session read and the edition asked again with the visitor's token, so a paid
 * edition's pages only come from a response for that token. The plans start with the edition.
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
 * The signed-in reader's edition. A kept "subscription required" is asked again (they may have just
 * subscribed); while the API is unreachable the kept answer stands.
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
