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
  const viewOf = (status: string, i18n = english) =>
    manageView(
      { ...confirmation, status, statusKind: statusKind(status), property: undefined },
      i18n,
    );

  it.each(['checked_in', 'checked_out', 'no_show'])(
    '%j offers no cancel and is not called “confirmed”',
    (status) => {
      const view = viewOf(status);
      expect(view.cancellable).toBe(false);
      expect(view.heading).not.toMatch(/confirmed/i);
    },
  );

  // The manage page, the last step and the mail all show these (before: the API's raw word).
  it.each([
    ['en-GB', 'checked_in', 'Booking status: Checked in', 'Checked in'],
    ['en-GB', 'Checked-Out', 'Booking status: Checked out', 'Checked out'],
    ['en-GB', 'no_show', 'Booking status: Did not arrive (no-show)', 'Did not arrive (no-show)'],
    ['de-CH', 'checked_in', 'Stand der Buchung: Eingecheckt', 'Eingecheckt'],
    ['fr-CH', 'checked_out', 'État de la réservation : Départ enregistré', 'Départ enregistré'],
    // A status the lodging API does not name in its contract or dialects: its own word.
    ['de-CH', 'on_request', 'Stand der Buchung: on_request', 'on_request'],
  ])('%s %j: “%s”', (locale, status, heading, word) => {
    const view = viewOf(status, createI18n(locale, 'Europe/Zurich'));
    expect(view.heading).toBe(heading);
    expect(view.text).toContain(word);
    expect(view.rows.find(([, value]) => value === word)).toBeTruthy();
  });

  it('a pending or confirmed stay stays cancellable', () => {
    for (const status of ['pending', 'confirmed']) {
      const stay = { ...confirmation, status, statusKind: statusKind(status), property: undefined };
      expect(manageView(stay, english).cancellable).toBe(true);
    }
  });
});
