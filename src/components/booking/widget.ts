import { addDays, nightsBetween } from '../../lib/booking/dates.ts';
import type { Confirmation } from '../../lib/booking/types.ts';
import { createBooking } from './booking.store.ts';
import { httpApi } from './http-api.ts';
import type {
  BookingConfig,
  BookingController,
  BookingState,
  BookingStorage,
  DraftField,
  SavedState,
} from './booking.store.ts';
import { longDate, money } from './format.ts';
import { sayer, type Say } from './text.ts';

/**
 * `<masthead-booking>`: binds the server-rendered steps to a booking store. It only subscribes and
 * calls actions; every rule lives in the store.
 */

function sessionStore(key: string): BookingStorage | undefined {
  try {
    const storage = window.sessionStorage;
    return {
      load: () => JSON.parse(storage.getItem(key) ?? 'null') as SavedState | null,
      save: (state) => storage.setItem(key, JSON.stringify(state)),
    };
  } catch {
    return undefined;
  }
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function el<T extends Element>(tag: string, attrs: Record<string, string> = {}, text = ''): T {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node as unknown as T;
}

function row(list: HTMLElement, term: string, value: string): void {
  list.append(el('dt', {}, term), el('dd', {}, value));
}

class MastheadBooking extends HTMLElement {
  private controller: BookingController | undefined;
  private shown = '';
  private locale = 'en';
  /** Texts in the page's language (`data-text`, from the server); English keys as a last resort. */
  private say: Say = (key) => key;
  private parentOrigin = '';

  connectedCallback(): void {
    if (this.controller) return;
    const config = JSON.parse(this.dataset['config'] ?? '{}') as BookingConfig;
    this.locale = this.dataset['locale'] || navigator.language || 'en';
    this.say = sayer(
      JSON.parse(this.dataset['text'] ?? '{}') as Parameters<typeof sayer>[0],
      this.locale,
    );
    this.parentOrigin = this.dataset['parentOrigin'] ?? '';
    const storage = sessionStore(`masthead-booking:${this.dataset['storageKey'] ?? ''}`);
    const controller = createBooking(
      config,
      httpApi(this.dataset['endpoint'] ?? '/api/booking'),
      storage,
    );
    this.controller = controller;

    for (const control of this.querySelectorAll<Control>('[data-field]')) {
      const field = control.dataset['field'] as DraftField;
      control.addEventListener(control.tagName === 'SELECT' ? 'change' : 'input', () =>
        controller.update(field, control.value),
      );
    }
    this.addEventListener('change', (event) => {
      const target = event.target as HTMLInputElement;
      if (target.name === 'roomTypeId') controller.update('roomTypeId', target.value);
    });
    for (const form of this.querySelectorAll('form')) {
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        void controller.next();
      });
    }
    this.addEventListener('click', (event) => {
      const button = (event.target as Element).closest<HTMLElement>('[data-action]');
      const action = button?.dataset['action'];
      if (action === 'back') controller.back();
      else if (action === 'retry') void controller.retry();
      else if (action === 'restart') controller.restart();
    });
    controller.$booking.subscribe((state) => this.render(state));
    if (this.parentOrigin && 'ResizeObserver' in window) {
      // The framed document's body has no minimum height, so it measures the content alone.
      new ResizeObserver(() =>
        this.postToParent({ type: 'masthead:resize', height: document.body.scrollHeight }),
      ).observe(this);
    }
    this.dataset['ready'] = 'true';
  }

  private postToParent(message: Record<string, unknown>): void {
    if (this.parentOrigin && window.parent !== window)
      window.parent.postMessage(message, this.parentOrigin);
  }

  private q<T extends Element>(selector: string): T | null {
    return this.querySelector<T>(selector);
  }

  private render(state: BookingState): void {
    const { draft, step } = state;
    for (const section of this.querySelectorAll<HTMLElement>('[data-step]')) {
      section.hidden = section.dataset['step'] !== step;
    }
    for (const control of this.querySelectorAll<Control>('[data-field]')) {
      const field = control.dataset['field'] as DraftField;
      const value = draft[field];
      const text = typeof value === 'number' ? (Number.isNaN(value) ? '' : String(value)) : value;
      if (control.value !== text && document.activeElement !== control) control.value = text;
    }
    for (const slot of this.querySelectorAll<HTMLElement>('[data-error-for]')) {
      const field = slot.dataset['errorFor'] ?? '';
      const messages = state.errors[field] ?? [];
      slot.textContent = messages.join(' ');
      slot.hidden = messages.length === 0;
      const control = this.querySelector<HTMLElement>(
        `[data-field="${field}"], [data-group="${field}"]`,
      );
      control?.setAttribute('aria-invalid', String(messages.length > 0));
    }
    this.renderDates(state);
    this.renderRooms(state);
    this.renderReview(state);
    if (state.confirmation) this.renderConfirmation(state.confirmation);

    const message = this.q<HTMLElement>('[data-message]');
    if (message) {
      message.hidden = !state.message;
      const text = this.q<HTMLElement>('[data-message-text]');
      if (text && text.textContent !== state.message) text.textContent = state.message;
      const retry = this.q<HTMLButtonElement>('[data-action="retry"]');
      if (retry) retry.hidden = !state.retryable;
    }
    for (const button of this.querySelectorAll<HTMLButtonElement>('button[type="submit"]')) {
      button.setAttribute('aria-disabled', String(state.pending));
    }
    this.toggleAttribute('aria-busy', state.pending);

    // Focus: a new step gets its heading; new field messages get the first invalid field.
    const errorKeys = Object.keys(state.errors).join();
    const shown = `${step}|${errorKeys}`;
    if (shown !== this.shown) {
      const stepChanged = !this.shown.startsWith(`${step}|`);
      this.shown = shown;
      if (this.dataset['ready'] !== 'true') return;
      const section = this.q<HTMLElement>(`[data-step="${step}"]`);
      const invalid = section?.querySelector<HTMLElement>('[aria-invalid="true"]');
      if (invalid) invalid.focus();
      else if (stepChanged) section?.querySelector<HTMLElement>('[data-heading]')?.focus();
      if (step === 'done' && stepChanged && state.confirmation)
        this.announceConfirmed(state.confirmation);
    }
  }

  private renderDates(state: BookingState): void {
    const { draft } = state;
    const controller = this.controller;
    if (!controller) return;
    const rules = controller.rules();
    const checkIn = this.q<HTMLInputElement>('[data-field="checkIn"]');
    const checkOut = this.q<HTMLInputElement>('[data-field="checkOut"]');
    if (checkIn) checkIn.min = rules.today;
    if (checkOut) {
      const from = /^\d{4}-\d{2}-\d{2}$/.test(draft.checkIn) ? draft.checkIn : rules.today;
      try {
        checkOut.min = addDays(from, rules.minNights);
        checkOut.max = addDays(from, rules.maxNights);
      } catch {
        checkOut.min = '';
      }
    }
    const nights = this.q<HTMLElement>('[data-out="nights"]');
    if (nights) {
      const n = nightsBetween(draft.checkIn, draft.checkOut);
      nights.textContent = n > 0 ? this.say('nights', { count: n }) : '';
    }
  }

  private renderRooms(state: BookingState): void {
    const list = this.q<HTMLElement>('[data-rooms]');
    const offers = state.offers;
    if (!list) return;
    const key = offers
      ? `${offers.checkIn}|${offers.checkOut}|${offers.adults}|${offers.children}|${JSON.stringify(offers.rooms)}`
      : '';
    if (list.dataset['key'] !== key) {
      list.dataset['key'] = key;
      list.replaceChildren();
      const summary = this.q<HTMLElement>('[data-out="search"]');
      if (summary && offers) {
        summary.textContent = `${longDate(offers.checkIn, this.locale)} – ${longDate(offers.checkOut, this.locale)} · ${this.say('nights', { count: offers.nights })} · ${this.say('guests', { count: offers.adults + offers.children })}`;
      }
      const id = this.id || 'booking';
      for (const room of offers?.rooms ?? []) {
        const inputId = `${id}-room-${room.roomTypeId}`;
        const option = el<HTMLElement>('div', {
          class: `room${room.available ? '' : ' room--full'}`,
        });
        const input = el<HTMLInputElement>('input', {
          type: 'radio',
          name: 'roomTypeId',
          id: inputId,
          value: room.roomTypeId,
          'aria-describedby': `${inputId}-price`,
        });
        input.disabled = !room.available;
        const label = el<HTMLLabelElement>('label', { for: inputId });
        label.append(
          el('strong', {}, room.name),
          el('span', { class: 'muted' }, this.say('sleeps', { count: room.maxOccupancy })),
        );
        const price = el<HTMLElement>('p', { id: `${inputId}-price`, class: 'room-price' });
        price.textContent = room.available
          ? [
              this.say('priceTotal', { price: money(room.totalPrice, room.currency, this.locale) }),
              this.say('pricePerNight', {
                price: money(room.pricePerNight, room.currency, this.locale),
              }),
              ...(room.availableRooms > 0 && room.availableRooms <= 3
                ? [this.say('left', { count: room.availableRooms })]
                : []),
            ].join(' · ')
          : this.say('notAvailable');
        option.append(input, label, price);
        if (room.description)
          option.append(el('p', { class: 'muted room-description' }, room.description));
        list.append(option);
      }
      if (offers && !offers.rooms.some((r) => r.available)) {
        list.append(el('p', { class: 'notice' }, this.say('nothingFree')));
      }
    }
    for (const input of list.querySelectorAll<HTMLInputElement>('input[name="roomTypeId"]')) {
      input.checked = input.value === state.draft.roomTypeId;
    }
  }

  private renderReview(state: BookingState): void {
    const list = this.q<HTMLElement>('[data-review]');
    if (!list || state.step !== 'review') return;
    const controller = this.controller;
    if (!controller) return;
    const { draft } = state;
    const offer = controller.selectedOffer();
    list.replaceChildren();
    const say = this.say;
    row(list, say('place'), controller.property()?.name ?? '');
    row(list, say('room'), offer?.name ?? '');
    row(list, say('checkIn'), longDate(draft.checkIn, this.locale));
    row(list, say('checkOut'), longDate(draft.checkOut, this.locale));
    row(list, say('nightsLabel'), String(nightsBetween(draft.checkIn, draft.checkOut)));
    row(
      list,
      say('guestsLabel'),
      `${say('adults', { count: draft.adults })}, ${say('children', { count: draft.children })}`,
    );
    row(list, say('name'), `${draft.firstName} ${draft.lastName}`);
    row(list, say('email'), draft.email);
    if (draft.phone) row(list, say('phone'), draft.phone);
    if (draft.nationality) {
      const select = this.q<HTMLSelectElement>('[data-field="nationality"]');
      row(list, say('nationality'), select?.selectedOptions[0]?.textContent ?? draft.nationality);
    }
    if (draft.notes.trim()) row(list, say('notes'), draft.notes.trim());
    if (offer) row(list, say('total'), money(offer.totalPrice, offer.currency, this.locale));
  }

  private renderConfirmation(confirmation: Confirmation): void {
    const list = this.q<HTMLElement>('[data-confirmation]');
    if (!list || list.dataset['reference'] === confirmation.reference) return;
    list.dataset['reference'] = confirmation.reference;
    list.replaceChildren();
    const say = this.say;
    row(list, say('reference'), confirmation.reference);
    row(list, say('place'), confirmation.propertyName);
    row(list, say('room'), confirmation.roomName);
    row(list, say('checkIn'), longDate(confirmation.checkIn, this.locale));
    row(list, say('checkOut'), longDate(confirmation.checkOut, this.locale));
    row(list, say('nightsLabel'), String(confirmation.nights));
    row(
      list,
      say('guestsLabel'),
      `${say('adults', { count: confirmation.adults })}, ${say('children', { count: confirmation.children })}`,
    );
    if (confirmation.totalPrice !== null) {
      row(list, say('total'), money(confirmation.totalPrice, confirmation.currency, this.locale));
    }
  }

  private announceConfirmed(confirmation: Confirmation): void {
    const detail = {
      reference: confirmation.reference,
      propertyId: confirmation.propertyId,
      roomTypeId: confirmation.roomTypeId,
      checkIn: confirmation.checkIn,
      checkOut: confirmation.checkOut,
      nights: confirmation.nights,
      totalPrice: confirmation.totalPrice,
      currency: confirmation.currency,
    };
    this.dispatchEvent(new CustomEvent('masthead:booking-confirmed', { detail, bubbles: true }));
    this.postToParent({ type: 'masthead:booking-confirmed', booking: detail });
  }
}

if (!customElements.get('masthead-booking'))
  customElements.define('masthead-booking', MastheadBooking);
