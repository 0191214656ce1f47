import type { APIRoute } from 'astro';
import { EMBED_LOADER } from '../../lib/booking/embed-loader.ts';
import { bookingTenant } from '../../lib/tenants/booking.ts';

/** The one-tag embed loader for partner pages (see `embed-loader.ts`). */
export const GET: APIRoute = ({ locals }) => {
  if (!bookingTenant(locals)) {
    return new Response('/* Booking is not offered on this site. */', {
      status: 404,
      headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
    });
  }
  return new Response(EMBED_LOADER, {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=300, stale-while-revalidate=3600',
      // Partner pages on other origins load it as a classic script.
      'Cross-Origin-Resource-Policy': 'cross-origin',
    },
  });
};
