import { describe, expect, it } from 'vitest';
import NotOnline from '../../../src/components/booking/NotOnline.astro';
import { notOnline, orNotOnline, unavailable } from '../../../src/lib/booking/domain/failures.ts';
import { render } from '../components/render.ts';

// A lodging API whose property this site cannot use: /stay and the manage link say whom to contact.
const contact = { phone: '+44 20 7946 0000', email: 'rooms@harbour.example' };

describe('orNotOnline', () => {
  it('passes a value through', async () => {
    await expect(orNotOnline(Promise.resolve(7))).resolves.toBe(7);
  });

  it('turns "not available online" into the content pages show, with the contact', async () => {
    const content = await orNotOnline(Promise.reject(notOnline(contact)));
    expect(content).toMatchObject({ kind: 'not-online', contact });
  });

  it('leaves other failures to the page (an outage is a 503 that says when to try again)', async () => {
    const outage = unavailable('booking.error.unavailable', 12);
    await expect(orNotOnline(Promise.reject(outage))).rejects.toBe(outage);
  });
});

describe('the "not available online" notice', () => {
  it('names the hotel’s phone and e-mail as links', async () => {
    const content = await orNotOnline(Promise.reject(notOnline(contact)));
    const page = await render(NotOnline, { props: { content } });
    expect(page.getByRole('alert').textContent).toMatch(/not available online/i);
    expect(page.getByRole('link', { name: '+44 20 7946 0000' }).getAttribute('href')).toBe(
      'tel:+442079460000',
    );
    expect(page.getByRole('link', { name: contact.email }).getAttribute('href')).toBe(
      `mailto:${contact.email}`,
    );
  });
});
