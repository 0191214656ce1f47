import { describe, expect, it } from 'vitest';
import { bookingPostSchema } from '../../../src/lib/booking/domain/schema.ts';

const request = {
  idempotencyKey: 'k'.repeat(32),
  propertyId: '6f1c2a52-3a0e-4a39-9f55-0f1a3c1e7d11',
  roomTypeId: 'double',
  checkIn: '2099-03-28',
  checkOut: '2099-03-30',
  adults: 2,
  children: 0,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
};

describe('the JSON API’s booking request', () => {
  it('is the action’s request; `anotherRoom` is optional and only `true` books once more', () => {
    expect(bookingPostSchema.parse(request).anotherRoom).toBe(false);
    expect(bookingPostSchema.parse({ ...request, anotherRoom: true }).anotherRoom).toBe(true);
    expect(bookingPostSchema.parse({ ...request, anotherRoom: 'yes' }).anotherRoom).toBe(false);
  });

  it('names the fields it refuses, and no others', () => {
    const { email: _email, ...partial } = request;
    const parsed = bookingPostSchema.safeParse({ ...partial, roomTypeId: '' });
    const fields = parsed.error?.issues.map((issue) => issue.path.join('.')).sort();
    expect(fields).toEqual(['email', 'roomTypeId']);
  });
});
