import { describe, expect, it, vi } from 'vitest';
import { findAndMail } from '../../../src/lib/booking/mail/links.ts';
import type { BookingService } from '../../../src/lib/booking/service/service.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// "Find my booking" mails a booking's link to the address it was made with: however many look-ups
// (from however many visitors), at most 3 such mails an hour reach one address or name one booking.
const tenant = buildTenant({ id: 'cap-test', hosts: ['cap.example.com'] });
const booking = (reference: string) => ({
  id: reference,
  reference,
  property_id: 'p',
  check_in: '2099-01-01',
  check_out: '2099-01-02',
  status: 'confirmed',
});

function fakeService() {
  const mailLink = vi.fn(() => Promise.resolve(true));
  const service = {
    tenant,
    findStay: (_email: string, reference: string) => Promise.resolve(booking(reference)),
    mailLink,
  } as unknown as BookingService;
  return { service, mailLink };
}

const context = (origin: string) => ({
  locals: {
    tenantMatchOrNull: { tenant, via: 'path', basePath: '/cap-test', pathname: '/', origin },
  } as unknown as App.Locals,
});

describe('link mails per recipient and per booking', () => {
  it('80 look-ups of one guest’s booking send 3 mails, all to the tenant’s own origin', async () => {
    const { service, mailLink } = fakeService();
    for (let i = 0; i < 80; i += 1)
      await findAndMail(
        context(`http://evil${i % 8}.example`),
        service,
        'guest@example.com',
        'BK-AAA111',
      );
    expect(mailLink).toHaveBeenCalledTimes(3);
    for (const [request] of mailLink.mock.calls as unknown as [
      { manageUrl: string; site: string },
    ][]) {
      expect(request.manageUrl).toMatch(/^https:\/\/cap\.example\.com\/stay\/manage\//);
      expect(request.site).toBe('https://cap.example.com/');
    }
  });

  it('another booking of the same address is capped too (per recipient); another address is not', async () => {
    const { service, mailLink } = fakeService();
    await findAndMail(
      context('https://cap.example.com'),
      service,
      'GUEST@example.com',
      'BK-BBB222',
    );
    expect(mailLink).not.toHaveBeenCalled();
    await findAndMail(
      context('https://cap.example.com'),
      service,
      'other@example.com',
      'BK-CCC333',
    );
    expect(mailLink).toHaveBeenCalledTimes(1);
  });
});
