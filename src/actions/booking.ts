import { ActionError, defineAction } from 'astro:actions';
import { z } from 'zod';
import { BookingFailure } from '../lib/booking/failures.ts';
import { cancelManagedStay } from '../lib/booking/managed.ts';

export const bookingActions = {
  /**
   * Cancels the booking a private manage link names (the link is the only authority: no session).
   * A bad or foreign token is a 404, like the page; an upstream failure comes back as a message.
   */
  cancelStay: defineAction({
    accept: 'form',
    input: z.object({ token: z.string().max(600) }),
    handler: async ({ token }, ctx) => {
      try {
        const stay = await cancelManagedStay(ctx.locals, token);
        if (!stay) throw new ActionError({ code: 'NOT_FOUND', message: 'Not found.' });
        return { ok: true as const, status: stay.status };
      } catch (error) {
        if (error instanceof BookingFailure) return { ok: false as const, message: error.message };
        throw error;
      }
    },
  }),
};
