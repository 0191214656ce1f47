import type { StreamState } from './status-at.ts';

const STATES = ['live', 'started', 'scheduled', 'starting', 'delayed', 'ended'];

/**
 * Moves a stream's badge on to `state` in the browser (at the start, in a static copy): its class,
 * its words (carried as `data-label-<state>` in the tenant's language) and the `data-status` of the
 * stream it stands for, so all of them say the same as a reload would.
 */
export function showState(badge: HTMLElement, state: StreamState): void {
  badge.classList.remove(...STATES);
  badge.classList.add(state);
  const word = badge.dataset[`label${state[0]?.toUpperCase() ?? ''}${state.slice(1)}`];
  if (word) (badge.querySelector('[data-stream-label]') ?? badge).textContent = word;
  badge.closest<HTMLElement>('[data-status]')?.setAttribute('data-status', state);
}
