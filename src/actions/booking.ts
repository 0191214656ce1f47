import { ActionError, defineAction } from 'astro:actions';
import { z } from 'zod';
import { limit } from '../lib/booking/api/limits.ts';
import { bookAndMail, findAndMail } from '../lib/booking/mail/links.ts';
import { normalizeEmail } from '../lib/booking/domain/email.ts';
import { textKey } from '../lib/i18n/text-key.ts';
import { BookingFailure } from '../lib/booking/domain/failures.ts';
import { cancelManagedStay } from '../lib/booking/manage/stay.ts';
import { isOutcomeUnknown } from '../lib/booking/service/create.ts';
import { fingerprintOf } from '../lib/booking/service/idempotency.ts';
import { detailsErrors, hasErrors } from '../lib/booking/domain/rules.ts';
import { bookingFormFields, bookingRequestSchema } from '../lib/booking/domain/schema.ts';
import { retryOf, type StepState } from '../lib/booking/steps/flow.ts';
import { bookingServiceFor } from '../lib/services/clients.ts';
import { fieldErrorsOf, type FieldErrors } from '../lib/failures/fields.ts';
import { bookingTenant } from '../lib/tenants/booking.ts';

const stayInput = z.object({
  /** `another`: "book another room for the same dates", the only way past the same-stay guard. */
  intent: z.enum(['review', 'book', 'another', 'edit']),
  ...bookingFormFields,
});

function offeredHere(locals: App.Locals) {
  const tenant = bookingTenant(locals);
  if (!tenant)
    throw new ActionError({ code: 'NOT_FOUND', message: 'Booking is not offered here.' });
  return tenant;
}

export const bookingActions = {
  /**
   * The booking without JavaScript: `review` checks the details and shows them for a last look,
   * `edit` goes back to the details, `book` books once per idempotency key (the review's).
   */
  bookStay: defineAction({
    accept: 'form',
    input: stayInput,
    handler: async ({ intent, ...form }, ctx): Promise<StepState> => {
      const tenant = offeredHere(ctx.locals);
      const values = Object.fromEntries(
        Object.entries(form).map(([key, value]) => [key, typeof value === 'string' ? value : '']),
      );
      const back = (step: 'details' | 'review', errors: FieldErrors = {}): StepState => {
        return { step, values, errors, offers: null, message: '', retry: false };
      };
      if (intent === 'edit') return back('details');
      const parsed = bookingRequestSchema.safeParse(values);
      const fields = parsed.success
        ? detailsErrors(parsed.data, tenant.lodging.fields)
        : fieldErrorsOf(parsed.error.issues);
      if (!parsed.success || hasErrors(fields)) return back('details', fields);
      const service = bookingServiceFor(tenant);
      // One attempt per form and details: an edit after Book (Back, or a second tab showing this
      // stay's draft and its key) is another attempt under the same guards ("booked moments ago"),
      // and sending the same form again stays the same attempt.
      const { idempotencyKey, ...details } = parsed.data;
      const attempt = { ...parsed.data, idempotencyKey: fingerprintOf([idempotencyKey, details]) };
      // The same details to review once booked (Back to them in the embed's frame): their confirmation.
      if (intent === 'review' && !(await service.booked(attempt))) return back('review');
      try {
        const made = await bookAndMail(ctx, service, attempt, intent === 'another');
        const booked = { ...made, email: parsed.data.email };
        return { step: 'done', values: {}, errors: {}, offers: null, message: '', booked };
      } catch (error) {
        if (!(error instanceof BookingFailure)) throw error;
        if (error.error.code === 'validation') return back('details', error.error.fields ?? {});
        return {
          ...back('review'),
          message: error.message,
          ...retryOf(error),
          sameStay: error.error.code === 'same_stay',
          maybeBooked: isOutcomeUnknown(error),
        };
      }
    },
  }),

  /**
   * "Find my booking" by e-mail and reference: rate-limited per visitor, and one answer whatever
   * is found (the link goes only to the address the booking was made with; see `findAndMail`).
   */
  findStay: defineAction({
    accept: 'form',
    input: z.object({
      email: z.string().max(400).optional(),
      reference: z.string().max(40).optional(),
    }),
    handler: async ({ email = '', reference = '' }, ctx) => {
      const tenant = offeredHere(ctx.locals);
      const values = { email, reference };
      const fields: FieldErrors = {};
      if (!normalizeEmail(email)) fields['email'] = [textKey('booking.error.emailRequired')];
      if (!reference.trim()) fields['reference'] = [textKey('booking.error.referenceRequired')];
      if (hasErrors(fields)) return { ok: false as const, values, fields, message: '' };
      try {
        await limit(ctx, 'find');
      } catch (error) {
        if (!(error instanceof BookingFailure)) throw error;
        return { ok: false as const, values, fields, message: error.message };
      }
      const service = bookingServiceFor(tenant);
      void findAndMail(ctx, service, email, reference);
      return { ok: true as const };
    },
  }),

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
