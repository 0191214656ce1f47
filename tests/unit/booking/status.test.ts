import { describe, expect, it } from 'vitest';
import { holdsRoom, statusKind } from '../../../src/lib/booking/domain/status.ts';
import { manageView } from '../../../src/lib/booking/manage/view.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { confirmation } from '../../fixtures/booking.ts';

describe('statusKind', () => {
  it.each([
    ['pending', 'received'],
    ['tentative', 'received'],
    ['Requested', 'received'],
    ['confirmed', 'confirmed'],
    ['booked', 'confirmed'],
    ['cancelled', 'cancelled'],
    ['canceled', 'cancelled'],
    ['CANCELLED', 'cancelled'],
    ['waitlisted', 'other'],
    // The contract names `confirmed` alone: a stay under way or over is not a confirmed booking.
    ['checked_in', 'other'],
    ['Checked-In', 'other'],
    ['checked_out', 'other'],
    ['', 'other'],
  ])('%j → %s', (status, kind) => {
    expect(statusKind(status)).toBe(kind);
  });
});

describe('holdsRoom', () => {
  it.each([
    ['pending', true],
    ['tentative', true],
    ['requested', true],
    ['confirmed', true],
    ['checked_in', true],
    ['something_new', true],
    ['cancelled', false],
    ['canceled', false],
    ['no_show', false],
    ['checked_out', false],
  ])('%j → %s', (status, holds) => {
    expect(holdsRoom(status)).toBe(holds);
  });
});

describe('a stay the hotel checked in or out', () => {
  const english = createI18n('en-GB', 'Europe/London');
  it.each(['checked_in', 'checked_out'])(
    '%j offers no cancel and says the hotel’s own word, not “confirmed”',
    (status) => {
      const stay = { ...confirmation, status, statusKind: statusKind(status), property: undefined };
      const view = manageView(stay, english);
      expect(view.cancellable).toBe(false);
      expect(view.heading).not.toMatch(/confirmed/i);
      // Its heading fits the status: the hotel's word (before: “Booking sent” for a stay under way).
      expect(view.heading).toBe(`Booking status: ${status}`);
      expect(Object.fromEntries(view.rows)['Status']).toBe(status);
    },
  );

  it('a pending or confirmed stay stays cancellable', () => {
    for (const status of ['pending', 'confirmed']) {
      const stay = { ...confirmation, status, statusKind: statusKind(status), property: undefined };
      expect(manageView(stay, english).cancellable).toBe(true);
    }
  });
});
