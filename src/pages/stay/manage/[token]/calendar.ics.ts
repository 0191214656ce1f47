import { failedLoad, PRIVATE, uncached } from '../../../../lib/delivery/policy.ts';
import type { APIRoute } from 'astro';
import { stayIcs } from '../../../../lib/booking/manage/ics.ts';
import { loadManagedStay } from '../../../../lib/booking/manage/stay.ts';
import { tenantUrl } from '../../../../lib/tenants/origin.ts';
import { localize } from '../../../../lib/i18n/text.ts';

/** The stay as an .ics file, for the manage page's "Add to calendar" (works without JavaScript). */
export const GET: APIRoute = async (context) => {
  const token = context.params.token ?? '';
  const { t } = context.locals.i18n;
  let stay;
  try {
    stay = await loadManagedStay(context.locals, token);
  } catch (error) {
    // As the manage page answers (`loadOrRespond`): 404 for the property gone, 503 while down.
    const answer = failedLoad(error);
    if (answer.status === 503) {
      return uncached(503, t('booking.unavailable'), { 'Retry-After': String(answer.retryAfter) });
    }
  }
  if (!stay) return uncached(404, t('error.notFound'));
  // The property cannot be used (as on /stay): whom to contact, and no promise that waiting helps.
  if ('kind' in stay) return uncached(503, localize(context.locals.i18n, stay.message));
  // Absolute addresses on the tenant's configured origin, never the request's Host (that origin
  // is the tenant's own host: no path prefix, as in the e-mails' links).
  const page = tenantUrl(context.locals.tenantMatchOrNull, `/stay/manage/${token}`);
  const ics = stayIcs({
    uid: `${stay.reference}@${page ? new URL(page).hostname : 'masthead.invalid'}`,
    title: t('widget.stayAt', { place: stay.property.name }),
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    location: [stay.property.name, stay.property.address, stay.property.city]
      .filter(Boolean)
      .join(', '),
    description: `${t('widget.reference')}: ${stay.reference}`,
    url: page ?? undefined,
    status: stay.statusKind,
  });
  return new Response(ics, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="stay-${stay.reference.replace(/[^\w-]/g, '')}.ics"`,
      'Cache-Control': PRIVATE,
      'Referrer-Policy': 'strict-origin',
    },
  });
};
