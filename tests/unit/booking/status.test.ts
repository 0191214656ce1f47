import { describe, expect, it } from 'vitest';
import { holdsRoom, statusKind } from '../../../src/lib/booking/domain/status.ts';

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
