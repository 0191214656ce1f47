import type { APIRoute } from 'astro';
import { getSignedIn } from '../lib/auth/session.ts';
import { readerCss } from '../lib/auth/reader-css.ts';

// Personal, so never in a shared cache; the pages that link it stay public and identical for everyone.
export const GET: APIRoute = async ({ locals, session }) => {
  const signedIn = await getSignedIn(session, locals.tenant.id);
  return new Response(readerCss(signedIn?.user.name ?? null), {
    headers: {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'private, no-store',
    },
  });
};
