import type { ApiResult } from '../types.ts';
import { textKey } from '../../i18n/text-key.ts';
import type { BookingApi } from './booking.store.ts';

/**
 * The site's booking endpoints, relative to `endpoint` (e.g. `/harbour-times/api/booking`); the
 * server answers its messages in `locale`, the widget's language.
 */
export function httpApi(
  endpoint: string,
  locale: string,
  fetcher: typeof fetch = fetch,
): BookingApi {
  const base = endpoint.replace(/\/+$/, '');
  const accept = { Accept: 'application/json', 'Accept-Language': locale };
  const read = async <T>(response: Response): Promise<ApiResult<T>> => {
    const body = (await response.json().catch(() => null)) as ApiResult<T> | null;
    if (body && typeof body === 'object' && 'ok' in body) return body;
    return {
      ok: false,
      error: {
        code: 'unavailable',
        message: textKey('booking.unavailable'),
      },
    };
  };
  return {
    async availability(query) {
      // Every value of the query, numbers included, as text.
      const params = new URLSearchParams(
        Object.entries(query).map(([name, value]) => [name, String(value)]),
      );
      return read(
        await fetcher(`${base}/availability?${params}`, {
          headers: accept,
        }),
      );
    },
    async book(request) {
      return read(
        await fetcher(`${base}/bookings`, {
          method: 'POST',
          headers: { ...accept, 'Content-Type': 'application/json' },
          body: JSON.stringify(request),
        }),
      );
    },
  };
}
