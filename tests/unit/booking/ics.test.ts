import { describe, expect, it } from 'vitest';
import { stayIcs } from '../../../src/lib/booking/manage/ics.ts';

const event = {
  uid: 'HV-1@harbour-times',
  title: 'Stay at Harbour View Hotel, Sea room',
  checkIn: '2027-06-01',
  checkOut: '2027-06-04',
  location: '1 Quay Street, Harbourton',
  description: 'Reference HV-1; check-in from 15:00',
  now: new Date('2027-05-01T10:20:30.123Z'),
};

describe('stayIcs', () => {
  const ics = stayIcs(event);
  const lines = ics.split('\r\n');

  it('is one all-day event from check-in to the check-out day', () => {
    expect(lines).toContain('DTSTART;VALUE=DATE:20270601');
    expect(lines).toContain('DTEND;VALUE=DATE:20270604');
    expect(lines).toContain('DTSTAMP:20270501T102030Z');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });

  it('escapes commas, semicolons and newlines in text', () => {
    expect(lines).toContain('LOCATION:1 Quay Street\\, Harbourton');
    expect(lines).toContain('DESCRIPTION:Reference HV-1\\; check-in from 15:00');
    expect(stayIcs({ ...event, description: 'a\nb' })).toContain('DESCRIPTION:a\\nb');
  });

  it('a line break of any kind in a name (a lone CR too) stays inside its line', () => {
    const forged = stayIcs({ ...event, title: 'Inn\rSTATUS:CANCELLED\r\nX:1' });
    expect(forged).toContain('SUMMARY:Inn\\nSTATUS:CANCELLED\\nX:1');
    expect(forged.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('folds lines longer than 75 octets', () => {
    const long = stayIcs({ ...event, title: 'Zimmer mit Blick aufs Meer '.repeat(6) });
    for (const line of long.split('\r\n')) {
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    }
    expect(long.replace(/\r\n /g, '')).toContain(
      `SUMMARY:${'Zimmer mit Blick aufs Meer '.repeat(6)}`,
    );
  });

  it('leaves out what is not known', () => {
    const bare = stayIcs({ ...event, location: undefined, description: undefined });
    expect(bare).not.toContain('LOCATION');
    expect(bare).not.toContain('DESCRIPTION');
  });

  it.each([
    ['received', 'STATUS:TENTATIVE', 'TRANSP:OPAQUE'],
    ['confirmed', 'STATUS:CONFIRMED', 'TRANSP:OPAQUE'],
    // A cancelled stay is cancelled in the guest's calendar too, and no longer blocks the days.
    ['cancelled', 'STATUS:CANCELLED', 'TRANSP:TRANSPARENT'],
  ] as const)('a %s booking is %s', (status, line, transparency) => {
    const lines = stayIcs({ ...event, status }).split('\r\n');
    expect(lines).toContain(line);
    expect(lines).toContain(transparency);
  });

  it('says no status it does not know', () => {
    expect(stayIcs({ ...event, status: 'other' })).not.toContain('STATUS:');
  });
});
