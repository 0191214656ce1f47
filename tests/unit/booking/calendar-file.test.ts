import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  notOnline,
  orNotOnline,
  placeNotFound,
  unavailable,
} from '../../../src/lib/booking/domain/failures.ts';
import { config, confirmation } from '../../fixtures/booking.ts';

const loadManagedStay = vi.hoisted(() => vi.fn());
vi.mock('../../../src/lib/booking/manage/stay.ts', () => ({ loadManagedStay }));
const { GET } = await import('../../../src/pages/stay/manage/[token]/calendar.ics.ts');

/** The manage page's "Add to calendar" file, asked with a valid-looking token. */
async function download(): Promise<Response> {
  const locals = {
    i18n: { t: (key: string) => key },
    tenantMatchOrNull: null,
    href: (path: string) => path,
  };
  return GET({ params: { token: 'payload.signature' }, locals } as never);
}

describe('the stay’s .ics file when the stay cannot be read', () => {
  beforeEach(() => {
    loadManagedStay.mockReset();
  });

  it('a property the lodging API no longer has is a 404, like the manage page (not a 500)', async () => {
    loadManagedStay.mockRejectedValue(placeNotFound());
    const answer = await download();
    expect(answer.status).toBe(404);
    expect(await answer.text()).toBe('error.notFound');
  });

  it('an outage is a 503 saying when to try again', async () => {
    loadManagedStay.mockRejectedValue(unavailable('booking.error.unavailable', 12));
    const answer = await download();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('Retry-After')).toBe('12');
  });

  it('a property this site cannot use is a 503 naming whom to contact, with no retry promise', async () => {
    loadManagedStay.mockResolvedValue(await orNotOnline(Promise.reject(notOnline(undefined))));
    const answer = await download();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('Retry-After')).toBeNull();
    expect(await answer.text()).toBe('booking.notOnlineDirect');
  });

  it('a bug is thrown on (the 500 page)', async () => {
    loadManagedStay.mockRejectedValue(new TypeError('boom'));
    await expect(download()).rejects.toThrow('boom');
  });
});

describe('the stay’s .ics file read under a path prefix (localhost/harbour-times/…)', () => {
  it('links the manage page on the tenant’s own host, without the prefix that host does not take', async () => {
    const property = config.properties[0]!;
    loadManagedStay.mockResolvedValue({ ...confirmation, token: 'payload.signature', property });
    const tenant = { id: 'harbour-times', hosts: ['harbourtimes.example.com'] };
    const locals = {
      i18n: { t: (key: string) => key },
      tenantMatchOrNull: { tenant, origin: 'https://example.net' },
      href: (path: string) => `/harbour-times${path}`,
    };
    const answer = await GET({ params: { token: 'payload.signature' }, locals } as never);
    expect(answer.status).toBe(200);
    // Unfolded (RFC 5545 3.1): the URL line as one line.
    const ics = (await answer.text()).replace(/\r\n /g, '');
    expect(ics).toContain(
      '\r\nURL:https://harbourtimes.example.com/stay/manage/payload.signature\r\n',
    );
  });

  it('names the file by the reference, kept to letters, digits and dashes (both links leave it to this)', async () => {
    const property = config.properties[0]!;
    const reference = 'BK-1/2 "x"';
    loadManagedStay.mockResolvedValue({ ...confirmation, reference, token: 't', property });
    const answer = await download();
    expect(answer.headers.get('Content-Disposition')).toBe(
      'attachment; filename="stay-BK-12x.ics"',
    );
  });
});
