import type { APIRoute } from 'astro';
import { embedLoader } from '../../lib/booking/embed/loader.ts';
import { EMBED_LOADER, publicCache } from '../../lib/delivery/policy.ts';
import { bookingTenant } from '../../lib/tenants/booking.ts';

/** The one-tag embed loader for partner pages (see `lib/booking/embed/loader.ts`). */
export const GET: APIRoute = ({ locals, cache }) => {
  const tenant = bookingTenant(locals);
  if (!tenant) {
    return new Response('/* Booking is not offered on this site. */', {
      status: 404,
      headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
    });
  }
  // Tagged with the tenant like pages: booking turned off or the tenant removed drops it at the edge.
  cache.set(EMBED_LOADER);
  return new Response(embedLoader(tenant), {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': publicCache(EMBED_LOADER),
      // Partner pages on other origins load it as a classic script.
      'Cross-Origin-Resource-Policy': 'cross-origin',
    },
  });
};
