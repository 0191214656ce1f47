import { addDays, isIsoDate, nightsBetween } from '../dates.ts';
import type { AvailabilityResult, Confirmation, RoomOffer } from '../types.ts';
import { createBooking } from './booking.store.ts';
import { isStep, STEPS } from '../steps.ts';
import { httpApi } from './http-api.ts';
import type {
  BookingConfig,
  BookingController,
  BookingState,
  BookingStorage,
  DraftField,
  SavedState,
  Step,
} from './booking.store.ts';
import { addMonths, monthStart, monthWeeks, moveFocus, pick, selectable } from './calendar.ts';
import { stayDate as longDate } from '../../i18n/format.ts';
import { roomFacts } from '../room-facts.ts';
import { bookedFacts, searchFacts } from '../partner-events.ts';
import { reviewRows, STATUS_TEXT, stayRows, type SummaryRows } from '../summary-rows.ts';
import { sayText, sayer, type Say } from '../../i18n/say.ts';

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

/** A summary list's rows as `<dt>`/`<dd>` pairs. */
function fill(list: HTMLElement, rows: SummaryRows): void {
  list.replaceChildren(
    ...rows.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]),
  );
}

/** What the booking endpoint answers: the confirmation and the guest's private link. */
type GuestConfirmation = Confirmation & { manageUrl?: string; mailed?: boolean };

/** What a link to /stay may fill in (lib/booking/deep-link.ts). */
const LINK_PARAMS = [
  'property',
  'checkIn',
  'checkOut',
  'nights',
  'adults',
  'children',
  'room',
  'step',
  'roomTypeId',
];

/** Waiting this long shows the busy text (a quick answer never flashes it). */
const BUSY_DELAY_MS = 400;

class MastheadBooking extends HTMLElement {
  private controller: BookingController | undefined;
  private shown = '';
  private locale = 'en';
  /** Texts in the page's language (`data-text`, from the server); English keys as a last resort. */
  private say: Say = (key) => key;
  private parentOrigin = '';
  /** The step of the current history entry (Back and Forward move between steps). */
  private historyStep: Step | undefined;
  private busyTimer: ReturnType<typeof setTimeout> | undefined;
  /** The calendar's first month and the day with its tab stop. */
  private month = '';
  private focusDay = '';
  /** The last search told to the partner page. */
  private searched = '';

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
      httpApi(this.dataset['endpoint'] ?? '/api/booking', this.locale),
      storage,
    );
    this.controller = controller;
    // The page's plain forms (for guests without JavaScript) give way to the widget.
    document.querySelector(`[data-plain-for="${this.id}"]`)?.remove();

    for (const control of this.querySelectorAll<Control>('[data-field]')) {
      const field = control.dataset['field'] as DraftField;
      control.addEventListener(control.tagName === 'SELECT' ? 'change' : 'input', () =>
        controller.update(field, control.value),
      );
    }
    this.addEventListener('change', (event) => {
      const target = event.target as HTMLInputElement;
      if (target.name !== 'roomTypeId') return;
      controller.update('roomTypeId', target.value);
      const { offers, draft } = controller.$booking.get();
      const room = controller.selectedOffer();
      if (offers && room)
        this.announce('room-chosen', {
          propertyId: draft.propertyId,
          roomTypeId: room.roomTypeId,
          checkIn: offers.checkIn,
          checkOut: offers.checkOut,
          nights: offers.nights,
          value: room.totalPrice,
          currency: room.currency,
        });
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
      else if (action === 'print') window.print();
    });
    window.addEventListener('popstate', (event) => {
      const target = (event.state as { bookingStep?: unknown } | null)?.bookingStep;
      if (!isStep(target)) return;
      this.historyStep = target;
      void controller.goTo(target).then(() => this.syncHistory(controller.$booking.get().step));
    });
    this.forgetLink();
    this.bindCalendar(controller);
    controller.$booking.subscribe((state) => this.render(state));
    if (this.parentOrigin && 'ResizeObserver' in window) {
      // The framed document's body has no minimum height, so it measures the content alone.
      new ResizeObserver(() =>
        this.postToParent({ type: 'masthead:resize', height: document.body.scrollHeight }),
      ).observe(this);
    }
    this.dataset['ready'] = 'true';
  }

  /** A link's stay is in the draft now: a reload keeps what the guest changed since (not the link's). */
  private forgetLink(): void {
    if (this.parentOrigin) return;
    const url = new URL(location.href);
    for (const name of LINK_PARAMS) url.searchParams.delete(name);
    if (url.href !== location.href) history.replaceState(history.state, '', url.href);
  }

  private postToParent(message: Record<string, unknown>): void {
    if (this.parentOrigin && window.parent !== window)
      window.parent.postMessage(message, this.parentOrigin);
  }

  /** A store or server message in this widget's language. */
  private sayText(message: string): string {
    return sayText(this.say, this.locale, message);
  }

  private q<T extends Element>(selector: string): T | null {
    return this.querySelector<T>(selector);
  }

  private render(state: BookingState): void {
    const { draft, step } = state;
    for (const section of this.querySelectorAll<HTMLElement>('[data-step]')) {
      section.hidden = section.dataset['step'] !== step;
    }
    for (const item of this.querySelectorAll<HTMLElement>('[data-step-item]')) {
      const at = STEPS.indexOf(item.dataset['stepItem'] as Step);
      if (item.dataset['stepItem'] === step) item.setAttribute('aria-current', 'step');
      else item.removeAttribute('aria-current');
      item.classList.toggle('step--past', at < STEPS.indexOf(step));
    }
    this.syncHistory(step);
    for (const control of this.querySelectorAll<Control>('[data-field]')) {
      const field = control.dataset['field'] as DraftField;
      const value = draft[field];
      const text = typeof value === 'number' ? (Number.isNaN(value) ? '' : String(value)) : value;
      if (control.value !== text && document.activeElement !== control) control.value = text;
    }
    for (const slot of this.querySelectorAll<HTMLElement>('[data-error-for]')) {
      const field = slot.dataset['errorFor'] ?? '';
      const messages = state.errors[field] ?? [];
      slot.textContent = messages.map((m) => this.sayText(m)).join(' ');
      slot.hidden = messages.length === 0;
      const control = this.querySelector<HTMLElement>(
        `[data-field="${field}"], [data-group="${field}"]`,
      );
      control?.setAttribute('aria-invalid', String(messages.length > 0));
    }
    this.renderDates(state);
    this.renderCalendar(state);
    this.renderRooms(state);
    this.renderReview(state);
    if (state.confirmation) this.renderConfirmation(state.confirmation);

    const message = this.q<HTMLElement>('[data-message]');
    if (message) {
      message.hidden = !state.message;
      const text = this.q<HTMLElement>('[data-message-text]');
      const shown = this.sayText(state.message);
      if (text && text.textContent !== shown) text.textContent = shown;
      const retry = this.q<HTMLButtonElement>('[data-action="retry"]');
      if (retry) retry.hidden = !state.retryable;
    }
    for (const button of this.querySelectorAll<HTMLButtonElement>('button[type="submit"]')) {
      button.setAttribute('aria-disabled', String(state.pending));
    }
    this.toggleAttribute('aria-busy', state.pending);
    this.renderBusy(state);

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
      if (step === 'rooms' && state.offers) this.announceSearch(state.offers);
    }
  }

  /** Each step is a history entry: a new step pushes one, Back and Forward arrive here as steps. */
  private syncHistory(step: Step): void {
    if (step === this.historyStep) return;
    const state = { ...(history.state as object | null), bookingStep: step };
    if (this.historyStep === undefined) history.replaceState(state, '');
    else if (this.dataset['ready'] === 'true') history.pushState(state, '');
    else history.replaceState(state, '');
    this.historyStep = step;
  }

  /** After a short wait, says what is going on; the fields stay usable meanwhile. */
  private renderBusy(state: BookingState): void {
    const busy = this.q<HTMLElement>('[data-busy]');
    if (!busy) return;
    if (!state.pending) {
      clearTimeout(this.busyTimer);
      this.busyTimer = undefined;
      busy.replaceChildren();
      return;
    }
    if (this.busyTimer !== undefined || busy.textContent) return;
    const text = this.say(state.step === 'review' ? 'sending' : 'searching');
    this.busyTimer = setTimeout(() => {
      if (!this.controller?.$booking.get().pending) return;
      busy.replaceChildren(el('span', { class: 'spinner', 'aria-hidden': 'true' }), text);
    }, BUSY_DELAY_MS);
  }

  private bindCalendar(controller: BookingController): void {
    const root = this.q<HTMLElement>('[data-date-calendar]');
    if (!root) return;
    const choose = (day: string) => {
      const { draft } = controller.$booking.get();
      const state = {
        checkIn: draft.checkIn,
        checkOut: draft.checkOut,
        month: this.month,
        focus: day,
      };
      const chosen = pick(day, state, controller.rules());
      if (!chosen) return;
      this.focusDay = day;
      controller.update('checkIn', chosen.checkIn);
      controller.update('checkOut', chosen.checkOut);
    };
    root.addEventListener('click', (event) => {
      const target = event.target as HTMLElement;
      const shift = target.closest<HTMLElement>('[data-shift]')?.dataset['shift'];
      if (shift) {
        this.month = addMonths(this.month, Number(shift));
        this.focusDay = this.month;
        this.renderCalendar(controller.$booking.get());
        return;
      }
      const day = target.closest<HTMLElement>('[data-day]')?.dataset['day'];
      if (day) choose(day);
    });
    root.addEventListener('keydown', (event) => {
      const day = (event.target as HTMLElement).dataset['day'];
      if (!day) return;
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        choose(day);
        return;
      }
      const next = moveFocus(day, event.key);
      if (!next) return;
      event.preventDefault();
      this.focusDay = next;
      const shown = this.monthsShown();
      if (next < this.month) this.month = monthStart(next);
      else if (next >= addMonths(this.month, shown))
        this.month = addMonths(monthStart(next), 1 - shown);
      this.renderCalendar(controller.$booking.get());
      this.q<HTMLElement>(`[data-day="${next}"]`)?.focus();
    });
  }

  private monthsShown(): number {
    return window.matchMedia('(min-width: 40rem)').matches ? 2 : 1;
  }

  /** The month grids, redrawn from the draft: the inputs and the calendar always agree. */
  private renderCalendar(state: BookingState): void {
    const root = this.q<HTMLElement>('[data-date-calendar]');
    const controller = this.controller;
    if (!root || !controller || state.step !== 'dates') return;
    const rules = controller.rules();
    const { checkIn, checkOut } = state.draft;
    if (!this.month) this.month = monthStart(isIsoDate(checkIn) ? checkIn : rules.today);
    if (!this.focusDay) this.focusDay = isIsoDate(checkIn) ? checkIn : rules.today;
    const calendar = { checkIn, checkOut, month: this.month, focus: this.focusDay };
    const key = JSON.stringify(calendar) + this.monthsShown();
    if (root.dataset['key'] === key) return;
    root.dataset['key'] = key;
    const hadFocus = root.contains(document.activeElement);
    const monthName = new Intl.DateTimeFormat(this.locale, {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const weekday = new Intl.DateTimeFormat(this.locale, { weekday: 'short', timeZone: 'UTC' });
    const nav = el<HTMLElement>('div', { class: 'calendar-nav' });
    nav.append(
      el(
        'button',
        {
          type: 'button',
          class: 'secondary',
          'data-shift': '-1',
          'aria-label': this.say('prevMonth'),
        },
        '‹',
      ),
      el('span', { class: 'muted' }, this.say('calendarHint')),
      el(
        'button',
        {
          type: 'button',
          class: 'secondary',
          'data-shift': '1',
          'aria-label': this.say('nextMonth'),
        },
        '›',
      ),
    );
    const grids: HTMLElement[] = [];
    for (let i = 0; i < this.monthsShown(); i += 1) {
      const month = addMonths(this.month, i);
      const table = el<HTMLTableElement>('table', { role: 'grid' });
      const caption = el('caption', {}, monthName.format(new Date(`${month}T00:00:00Z`)));
      const head = el('tr');
      for (let d = 0; d < 7; d += 1) {
        const day = new Date(Date.UTC(2024, 0, 1 + d)); // 1 January 2024 was a Monday.
        head.append(
          el('th', { scope: 'col', abbr: weekday.format(day) }, weekday.format(day).slice(0, 2)),
        );
      }
      const body = el('tbody');
      for (const week of monthWeeks(month)) {
        const tr = el('tr');
        for (const day of week) {
          if (!day) {
            tr.append(el('td'));
            continue;
          }
          const cell = el<HTMLElement>(
            'td',
            {
              'data-day': day,
              tabindex: day === this.focusDay ? '0' : '-1',
              'aria-label': longDate(day, this.locale),
              'aria-selected': String(day === checkIn || day === checkOut),
            },
            String(Number(day.slice(8))),
          );
          if (!selectable(day, calendar, rules)) cell.setAttribute('aria-disabled', 'true');
          if (isIsoDate(checkIn) && isIsoDate(checkOut) && day > checkIn && day < checkOut)
            cell.classList.add('in-range');
          tr.append(cell);
        }
        body.append(tr);
      }
      table.append(caption, el('thead'), body);
      table.tHead?.append(head);
      grids.push(table);
    }
    // A focus day outside the months shown gets no tab stop: give it to the first day shown.
    root.replaceChildren(nav, ...grids);
    if (!root.querySelector('[tabindex="0"]'))
      root.querySelector('[data-day]')?.setAttribute('tabindex', '0');
    if (hadFocus) root.querySelector<HTMLElement>(`[data-day="${this.focusDay}"]`)?.focus();
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
      const from = isIsoDate(draft.checkIn) ? draft.checkIn : rules.today;
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
      for (const room of offers?.rooms ?? [])
        if (offers) list.append(this.roomCard(room, offers, `${id}-room-${room.roomTypeId}`));
      if (offers && !offers.rooms.some((r) => r.available)) {
        list.append(el('p', { class: 'notice' }, this.say('nothingFree')));
      }
    }
    for (const input of list.querySelectorAll<HTMLInputElement>('input[name="roomTypeId"]')) {
      input.checked = input.value === state.draft.roomTypeId;
    }
  }

  /** One room as a card: capacity, price per night and total, or why it cannot be chosen. */
  private roomCard(room: RoomOffer, party: AvailabilityResult, inputId: string): HTMLElement {
    const card = el<HTMLElement>('div', { class: `room${room.available ? '' : ' room--full'}` });
    const input = el<HTMLInputElement>('input', {
      type: 'radio',
      name: 'roomTypeId',
      id: inputId,
      value: room.roomTypeId,
      'aria-describedby': `${inputId}-facts`,
    });
    input.disabled = !room.available;
    const label = el<HTMLLabelElement>('label', { for: inputId, class: 'room-name' }, room.name);
    const facts = el<HTMLElement>('p', { id: `${inputId}-facts`, class: 'room-facts' });
    const said = roomFacts(room, party, this.say, this.locale);
    const parts: [string | undefined, string, string][] = [
      [said.capacity, 'span', ''],
      [said.perNight, 'strong', 'room-price'],
      [said.total, 'span', ''],
      [said.left, 'span', 'room-left'],
      [said.why, 'span', 'room-why'],
    ];
    for (const [text, tag, name] of parts)
      if (text) facts.append(el(tag, name ? { class: name } : {}, text));
    card.append(input, label, facts);
    if (room.description)
      card.append(el('p', { class: 'muted room-description' }, room.description));
    return card;
  }

  private renderReview(state: BookingState): void {
    const list = this.q<HTMLElement>('[data-review]');
    const controller = this.controller;
    if (!list || !controller || state.step !== 'review') return;
    const { draft } = state;
    const offer = controller.selectedOffer();
    const select = this.q<HTMLSelectElement>('[data-field="nationality"]');
    const country = draft.nationality
      ? (select?.selectedOptions[0]?.textContent ?? draft.nationality)
      : '';
    const facts = {
      ...draft,
      place: controller.property()?.name ?? '',
      room: offer?.name ?? '',
      country,
      total: offer?.totalPrice ?? null,
      currency: offer?.currency ?? '',
    };
    fill(list, reviewRows(facts, this.say, this.locale));
  }

  /** The last step says what the lodging API said: a request is not a confirmed booking. */
  private renderConfirmation(confirmation: GuestConfirmation): void {
    const list = this.q<HTMLElement>('[data-confirmation]');
    const key = `${confirmation.reference}|${confirmation.status}`;
    if (!list || list.dataset['key'] === key) return;
    list.dataset['key'] = key;
    const say = this.say;
    // The server's reading of the status (a confirmation kept by an older version may lack it).
    const kind = confirmation.statusKind in STATUS_TEXT ? confirmation.statusKind : 'other';
    const text = STATUS_TEXT[kind];
    const out = (name: string, value: string) => {
      const node = this.q<HTMLElement>(`[data-out="${name}"]`);
      if (node) node.textContent = value;
    };
    out('doneHeading', say(text.heading));
    out('doneText', say(text.text, { status: confirmation.status }));
    // Only an e-mail that went out is mentioned.
    const to = this.controller?.$booking.get().draft.email ?? '';
    out('mailed', confirmation.mailed ? say('mailed', { email: to }) : '');

    const place = this.controller?.property(confirmation.propertyId);
    const address = [place?.address, place?.city].filter(Boolean).join(', ');
    const facts = {
      ...confirmation,
      kind,
      place: confirmation.propertyName,
      address,
      room: confirmation.roomName,
      checkInTime: place?.checkInTime,
      checkOutTime: place?.checkOutTime,
      total: confirmation.totalPrice,
    };
    fill(list, stayRows(facts, say, this.locale));

    const manage = this.q<HTMLElement>('[data-manage]');
    const link = this.q<HTMLAnchorElement>('[data-manage-link]');
    if (manage && link) {
      manage.hidden = !confirmation.manageUrl;
      // href-less placeholders until now: target/download only with an href (HTML; crawlable links).
      if (confirmation.manageUrl)
        Object.assign(link, { href: confirmation.manageUrl, target: '_blank' });
    }
    // The manage page's own .ics (one calendar file for the widget, the plain flow and the e-mail).
    const calendar = this.q<HTMLAnchorElement>('[data-calendar]');
    if (calendar) {
      calendar.hidden = !confirmation.manageUrl;
      if (confirmation.manageUrl) {
        const file = new URL(confirmation.manageUrl, location.href);
        file.pathname += '/calendar.ics';
        calendar.href = file.href;
        calendar.download = `stay-${confirmation.reference}.ics`;
      }
    }
  }

  private announceConfirmed(confirmation: Confirmation): void {
    const detail = bookedFacts(confirmation);
    this.dispatchEvent(new CustomEvent('masthead:booking-confirmed', { detail, bubbles: true }));
    this.postToParent({
      type: 'masthead:booking-confirmed',
      booking: detail,
      event: 'masthead_booked',
      transaction_id: detail.reference,
      value: detail.totalPrice,
      currency: detail.currency,
    });
  }

  /** The search a guest ran, once per search (Back to the rooms repeats none). */
  private announceSearch(offers: AvailabilityResult): void {
    const facts = searchFacts(offers);
    const key = JSON.stringify(facts);
    if (key === this.searched) return;
    this.searched = key;
    this.announce('search', facts);
  }

  /**
   * A partner event: flat, with a `dataLayer` event name, so `dataLayer.push(event.data)` takes it.
   * Never a name, e-mail or phone number (docs/booking-partners.md).
   */
  private announce(name: 'search' | 'room-chosen', facts: Record<string, unknown>): void {
    this.postToParent({
      type: `masthead:${name}`,
      event: `masthead_${name.replace('-', '_')}`,
      ...facts,
    });
  }
}

if (!customElements.get('masthead-booking'))
  customElements.define('masthead-booking', MastheadBooking);
