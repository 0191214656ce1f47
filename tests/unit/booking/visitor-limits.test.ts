import { describe, expect, it } from 'vitest';
import { limit } from '../../../src/lib/booking/api/limits.ts';
import { BookingFailure } from '../../../src/lib/booking/domain/failures.ts';
import { settingDefaults } from '../../../src/lib/settings/schema.ts';

// Booking's per-visitor limits count an IPv6 visitor by its /64, as the sign-in and comment limits do.
const visit = (address: string) => ({
  locals: {
    tenantMatchOrNull: null,
    visitor: { address },
  } as unknown as App.Locals,
});

describe('booking limits per visitor', () => {
  it('a visitor walking through the addresses of one IPv6 /64 meets the one limit', async () => {
    const points = settingDefaults.BOOKING_PER_IP_PER_10_MIN;
    for (let i = 1; i <= points; i++) await limit(visit(`2001:db8:42:1::${i}`), 'book');
    await expect(limit(visit('2001:db8:42:1::ffff'), 'book')).rejects.toBeInstanceOf(
      BookingFailure,
    );
    // Another /64 has its own allowance.
    await expect(limit(visit('2001:db8:42:2::1'), 'book')).resolves.toBeUndefined();
  });
});
