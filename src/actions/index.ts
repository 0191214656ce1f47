import { accountActions } from './account.ts';
import { bookingActions } from './booking.ts';
import { commentActions } from './comments.ts';

/** Every action of the site: each area adds its own module here. */
export const server = {
  ...accountActions,
  ...bookingActions,
  ...commentActions,
};
