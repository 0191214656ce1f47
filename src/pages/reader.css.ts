import type { APIRoute } from 'astro';
import { getSignedIn } from '../lib/auth/session.ts';
import { subscriberCss } from '../lib/auth/subscriber-css.ts';
import { PRIVATE } from '../lib/delivery/policy.ts';

// The signed-in subscriber's stylesheet (the URL predates the name; elsewhere the "reader" is the
// e-paper viewer). Personal, so never in a shared cache; the pages that link it stay public and
// identical for everyone.
export const GET: APIRoute = async ({ locals, session }) => {
  const signedIn = await getSignedIn(session, locals.tenant);
  return new Response(subscriberCss(signedIn?.user ?? null), {
    headers: {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': PRIVATE,
    },
  });
};
