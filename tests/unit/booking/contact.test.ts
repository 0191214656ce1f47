import { describe, expect, it } from 'vitest';
import {
  aroundContact,
  contactLine,
  contactLinks,
} from '../../../src/lib/booking/domain/contact.ts';

const contact = { phone: '+44 20 7946 0000', email: 'rooms@harbour-hotels.test' };

describe('the hotel’s contact as links', () => {
  it('phone as tel: (digits and +), e-mail as mailto:, a web address as itself', () => {
    expect(contactLinks({ ...contact, url: 'https://hotel.example/contact' })).toEqual([
      { text: '+44 20 7946 0000', href: 'tel:+442079460000' },
      { text: 'rooms@harbour-hotels.test', href: 'mailto:rooms@harbour-hotels.test' },
      { text: 'https://hotel.example/contact', href: 'https://hotel.example/contact' },
    ]);
    expect(contactLinks({ phone: '(030) 123-45.67' })).toEqual([
      { text: '(030) 123-45.67', href: 'tel:0301234567' },
    ]);
    // Never a javascript: or other scheme as a link.
    expect(contactLinks({ url: 'javascript:alert(1)' })).toEqual([
      { text: 'javascript:alert(1)', href: '' },
    ]);
    expect(contactLinks(undefined)).toEqual([]);
  });

  it('finds the contact line in a message, so a page can put the links in its place', () => {
    const text = `Questions? Contact the hotel: ${contactLine(contact)}.`;
    expect(aroundContact(text, contact)).toEqual(['Questions? Contact the hotel: ', '.']);
    expect(aroundContact('No contact here.', contact)).toBeNull();
    expect(aroundContact('Anything', undefined)).toBeNull();
  });
});
