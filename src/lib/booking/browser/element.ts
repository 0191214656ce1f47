import { addDays, isIsoDate, nightsBetween, type StayRules } from '../domain/dates.ts';
import { addMonths, monthWeeks, moveFocus, pick, selectable } from './calendar.ts';
import { bookingStore } from './booking.store.ts';
import { STEP_HEADER } from '../steps/address.ts';
import { stayDate as longDate } from '../../i18n/format.ts';
import { sayerOf, type Say } from '../../i18n/say.ts';
import { escapeHtml } from '../../content/escape.ts';
import { isRecord } from '../../content/records.ts';

/**
 * `<masthead-booking>`: enhances the server-rendered steps (BookingSteps.astro), which work without
 * JavaScript. It sends each form with fetch and swaps in the answered step, makes each step a
 * history entry, keeps what the guest typed across Back and reload, shows a busy state, adds a
 * date-range calendar and tells a partner page (when embedded) what happened, without personal data.
 * Not Astro's <ClientRouter />: it fetches again on Back, and the embed's frame (no cookie on a
 * partner's page) can rebuild no posted step from its address; it swaps whole documents, not a step.
 */

type Values = Record<string, string>;
/**
 * A history entry and the tab's draft: the step's markup as shown, what the guest had typed when
 * leaving it, and the frame's first address (an embed's partner page reloaded starts there).
 */
interface Entry {
  html: string;
  step: string;
  url: string;
  start: string;
  values: Values;
}

// What crosses into the element (data attributes, history, storage) is checked, never trusted.
const isValues = (value: unknown): value is Values =>
  isRecord(value) && Object.values(value).every((text) => typeof text === 'string');
const isEntry = (value: unknown): value is Entry =>
  isRecord(value) &&
  ['html', 'step', 'url', 'start'].every((key) => typeof value[key] === 'string') &&
  isValues(value['values']);
const isRules = (value: unknown): value is StayRules =>
  isRecord(value) &&
  typeof value['today'] === 'string' &&
  typeof value['minNights'] === 'number' &&
  typeof value['maxNights'] === 'number';
const entryOf = (state: unknown): Entry | undefined =>
  isRecord(state) && isEntry(state['booking']) ? state['booking'] : undefined;

/** Waiting this long shows the busy text (a quick answer never flashes it). */
const BUSY_DELAY_MS = 400;

/** JSON text that passes `is`; anything else is undefined. */
function read<T>(
  raw: string | null | undefined,
  is: (value: unknown) => value is T,
): T | undefined {
  try {
    const value: unknown = raw ? JSON.parse(raw) : undefined;
    return is(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The history entry's state with `booking` set, keeping what others put there. */
function withEntry(booking: Entry): Record<string, unknown> {
  const state: unknown = history.state;
  return { ...(isRecord(state) ? state : {}), booking };
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

class MastheadBooking extends HTMLElement {
  private locale = 'en';
  private say: Say = (key) => key;
  private parentOrigin = '';
  private busyTimer: ReturnType<typeof setTimeout> | undefined;
  private store = bookingStore();
  /** The frame's address as the embed's loader made it: a reload of the partner page starts there. */
  private start = '';
  /** Each booking key's confirmation: Back to its review shows that, not the Book button again. */
  private booked = new Map<string, Entry>();

  connectedCallback(): void {
    if (this.dataset['ready']) return;
    this.locale = this.dataset['locale'] || 'en';
    this.say = sayerOf(this);
    this.parentOrigin = this.dataset['parentOrigin'] ?? '';
    this.start = location.href;
    this.store.$busy.listen((busy) => this.renderBusy(busy));
    this.addEventListener('submit', (event) => this.onSubmit(event));
    this.addEventListener('click', (event) => this.onClick(event));
    this.addEventListener('input', (event) => this.onInput(event));
    this.addEventListener('change', (event) => this.onChange(event));
    this.addEventListener('keydown', (event) => this.onCalendarKey(event));
    window.addEventListener('popstate', (event) => this.onPopState(event));
    window.addEventListener('pagehide', () => this.remember());
    this.restoreDraft();
    this.enter();
    history.replaceState(withEntry(this.entry()), '');
    this.dataset['ready'] = 'true';
  }

  // Sending a step.

  private onSubmit(event: SubmitEvent): void {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    // A second click while the first is on its way sends nothing (the server also books once per key).
    if (this.store.$busy.get()) return;
    const data = new FormData(form, event.submitter);
    if (form.method === 'get') {
      const url = new URL(form.action);
      url.search = '';
      for (const [name, value] of data)
        if (typeof value === 'string') url.searchParams.append(name, value);
      void this.load(url.href, { method: 'GET' }, 'searching');
    } else {
      void this.load(form.action, { method: 'POST', body: data }, 'sending');
    }
  }

  private onClick(event: MouseEvent): void {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const back = target.closest<HTMLAnchorElement>('a[data-back]');
    const shift = target.closest<HTMLElement>('[data-shift]')?.dataset['shift'];
    const day = target.closest<HTMLElement>('[data-day]')?.dataset['day'];
    if (target.closest('[data-action="print"]')) window.print();
    else if (back && !event.metaKey && !event.ctrlKey && !event.shiftKey && event.button === 0) {
      event.preventDefault();
      if (!this.store.$busy.get()) void this.load(back.href, { method: 'GET' }, 'searching');
    } else if (shift) {
      this.store.shift(Number(shift));
      this.renderCalendar();
    } else if (day) this.pickDay(day);
  }

  /** Asks the server for a step and shows it; on failure the guest keeps the form and its values. */
  private async load(url: string, init: RequestInit, busy: 'searching' | 'sending'): Promise<void> {
    this.remember();
    this.store.$busy.set(busy);
    const key = init.body instanceof FormData ? init.body.get('idempotencyKey') : null;
    try {
      const response = await fetch(url, {
        ...init,
        headers: { [STEP_HEADER]: '1' },
        credentials: 'same-origin',
      });
      const page = new DOMParser().parseFromString(await response.text(), 'text/html');
      const next = page.querySelector<HTMLElement>('masthead-booking');
      if (!next) throw new Error(`no booking step in the answer (${response.status})`);
      this.show(next.innerHTML, next.dataset['step'] ?? '', next.dataset['url'] ?? url);
      history.pushState(withEntry(this.entry()), '', this.dataset['url']);
      if (next.dataset['step'] === 'done' && typeof key === 'string')
        this.booked.set(key, this.entry());
      this.focusStep();
    } catch {
      this.problem(this.say('offline'));
    } finally {
      this.store.$busy.set(null);
    }
  }

  /** A step's markup; coming Back, with what the guest had typed, before the calendar is drawn. */
  private show(html: string, step: string, url: string, values?: Values): void {
    this.innerHTML = html;
    this.dataset['step'] = step;
    this.dataset['url'] = url;
    this.store.newStep();
    if (values) this.fill(values);
    this.enter();
  }

  /** What a new step adds: the calendar, the print button, its partner events. */
  private enter(): void {
    this.querySelector('[data-action="print"]')?.removeAttribute('hidden');
    // "Try again" appears once the wait the message names is over (before, it could only fail).
    for (const retry of this.querySelectorAll<HTMLElement>('[data-retry-after]')) {
      const wait = Number(retry.dataset['retryAfter']) * 1000;
      setTimeout(() => retry.removeAttribute('hidden'), Number.isFinite(wait) ? wait : 0);
    }
    this.renderDates();
    const search = this.querySelector<HTMLElement>('[data-search]')?.dataset['search'];
    if (search) this.tell(`search${search}`, 'search', read(search, isRecord) ?? {});
    const booked = this.querySelector<HTMLElement>('[data-booked]')?.dataset['booked'];
    const facts = read(booked, isRecord);
    if (booked && facts && this.store.once(booked)) {
      this.dispatchEvent(
        new CustomEvent('masthead:booking-confirmed', { detail: facts, bubbles: true }),
      );
      this.postToParent({
        type: 'masthead:booking-confirmed',
        booking: facts,
        event: 'masthead_booked',
        transaction_id: facts['reference'],
        value: facts['totalPrice'],
        currency: facts['currency'],
      });
    }
  }

  /** A new step gets its heading focused; refused values, the first refused field. */
  private focusStep(): void {
    const invalid = this.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? this.querySelector<HTMLElement>('[data-heading]'))?.focus();
  }

  /** The step's message box (BookingSteps.astro's, under the busy line), saying only `text`. */
  private problem(text: string): void {
    this.querySelector('[data-message]')?.remove();
    this.querySelector('[data-busy]')?.insertAdjacentHTML(
      'afterend',
      `<div class="booking-message notice problem no-print" role="alert" data-message><span>${escapeHtml(text)}</span></div>`,
    );
  }

  /** A request under way: busy and its buttons inert, the busy text only on a slow answer. */
  private renderBusy(busy: 'searching' | 'sending' | null): void {
    this.toggleAttribute('aria-busy', busy !== null);
    for (const button of this.querySelectorAll('button[type="submit"]'))
      button.setAttribute('aria-disabled', String(busy !== null));
    const slot = this.querySelector('[data-busy]');
    clearTimeout(this.busyTimer);
    if (!busy) {
      slot?.replaceChildren();
      return;
    }
    this.busyTimer = setTimeout(() => {
      if (this.store.$busy.get() && slot)
        slot.innerHTML = `<span class="spinner" aria-hidden="true"></span>${escapeHtml(this.say(busy))}`;
    }, BUSY_DELAY_MS);
  }

  // History and what the guest typed.

  private entry(): Entry {
    return {
      html: this.innerHTML,
      step: this.dataset['step'] ?? '',
      url: this.dataset['url'] ?? location.href,
      start: this.start,
      values: this.values(),
    };
  }

  /** The step as left: its typed values in the history entry (Back) and the tab's storage (reload). */
  private remember(): void {
    if (!this.dataset['ready']) return;
    const entry = this.entry();
    history.replaceState(withEntry(entry), '');
    try {
      sessionStorage.setItem(this.draftKey(), JSON.stringify(entry));
    } catch {
      // Storage off (private mode): Back still keeps the values in the history entry.
    }
  }

  private onPopState(event: PopStateEvent): void {
    const left = entryOf(event.state);
    if (!left) return;
    const entry = this.bookedFrom(left) ?? left;
    if (entry !== left) history.replaceState(withEntry(entry), '', entry.url);
    this.show(entry.html, entry.step, entry.url, entry.values);
    this.querySelector<HTMLElement>('[data-heading]')?.focus();
  }

  /** The confirmation of a review this element booked. */
  private bookedFrom(entry: Entry): Entry | undefined {
    if (entry.step !== 'review') return undefined;
    const step = document.createElement('template');
    step.innerHTML = entry.html;
    const key = step.content.querySelector<HTMLInputElement>('input[name="idempotencyKey"]');
    return this.booked.get(key?.value ?? '');
  }

  private draftKey(): string {
    return `masthead-booking:${this.dataset['storageKey'] ?? ''}`;
  }

  /** After a reload: what was typed on this very step, which the server's page cannot know. */
  private restoreDraft(): void {
    try {
      const saved = read(sessionStorage.getItem(this.draftKey()), isEntry);
      if (saved && saved.url === this.dataset['url']) this.fill(saved.values);
      // The partner page reloaded (its frame loads its first address): the step the guest was
      // on, as left (a confirmation is not shown again: the partner would hear of it twice).
      else if (this.parentOrigin && saved?.start === this.start && saved.step !== 'done') {
        this.show(saved.html, saved.step, saved.url, saved.values);
        history.replaceState(history.state, '', saved.url);
      }
    } catch {
      // Nothing kept.
    }
  }

  private controls(): Control[] {
    const all = this.querySelectorAll<Control>('input[name], select[name], textarea[name]');
    return [...all].filter((control) => control.type !== 'hidden');
  }

  private values(): Values {
    const values: Values = {};
    for (const control of this.controls())
      if (control.type !== 'radio' || (control instanceof HTMLInputElement && control.checked))
        values[control.name] = control.value;
    return values;
  }

  private fill(values: Values): void {
    for (const control of this.controls()) {
      const value = values[control.name];
      if (control instanceof HTMLInputElement && control.type === 'radio')
        control.checked = control.value === value && !control.disabled;
      else if (value !== undefined) control.value = value;
    }
  }

  // What the guest typed is remembered as they type (Back then Forward, a reload).
  private onInput(event: Event): void {
    this.remember();
    const input = event.target;
    if (!(input instanceof HTMLInputElement)) return;
    if (input.name === 'checkIn') this.store.typed(input.value);
    if (input.name === 'checkIn' || input.name === 'checkOut') this.renderDates();
  }

  private onChange(event: Event): void {
    this.remember();
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.name !== 'roomTypeId' || !input.checked)
      return;
    const chosen = input.dataset['chosen'];
    this.tell(`room${chosen}`, 'room-chosen', read(chosen, isRecord) ?? {});
  }

  // Partner events.

  /**
   * A partner event, once: flat, with a `dataLayer` event name, so `dataLayer.push(event.data)`
   * takes it. Never a name, e-mail or phone number (docs/booking-partners.md).
   */
  private tell(key: string, name: 'search' | 'room-chosen', facts: Record<string, unknown>): void {
    if (!this.store.once(key)) return;
    this.postToParent({
      type: `masthead:${name}`,
      event: `masthead_${name.replace('-', '_')}`,
      ...facts,
    });
  }

  private postToParent(message: Record<string, unknown>): void {
    if (this.parentOrigin && window.parent !== window)
      window.parent.postMessage(message, this.parentOrigin);
  }

  // The dates: nights, check-out limits and the calendar, all from the two date inputs.

  private dates() {
    const checkIn = this.querySelector<HTMLInputElement>('input[name="checkIn"]');
    const checkOut = this.querySelector<HTMLInputElement>('input[name="checkOut"]');
    const root = this.querySelector<HTMLElement>('[data-date-calendar]');
    const rules = read(root?.dataset['rules'], isRules);
    return checkIn && checkOut && root && rules ? { checkIn, checkOut, root, rules } : null;
  }

  private renderDates(): void {
    const dates = this.dates();
    if (!dates) return;
    const { checkIn, checkOut, rules } = dates;
    const from = isIsoDate(checkIn.value) ? checkIn.value : rules.today;
    // Set only when they change: setting them again clears a date being typed in (Chromium).
    const min = addDays(from, rules.minNights);
    const max = addDays(from, rules.maxNights);
    if (checkOut.min !== min) checkOut.min = min;
    if (checkOut.max !== max) checkOut.max = max;
    const nights = this.querySelector('[data-nights]');
    const n = nightsBetween(checkIn.value, checkOut.value);
    if (nights) nights.textContent = n > 0 ? this.say('nights', { count: n }) : '';
    this.renderCalendar();
  }

  private pickDay(day: string): void {
    const dates = this.dates();
    if (!dates) return;
    const { checkIn, checkOut, rules } = dates;
    const chosen = pick(day, { checkIn: checkIn.value, checkOut: checkOut.value }, rules);
    if (!chosen) return;
    this.store.focus(day);
    checkIn.value = chosen.checkIn;
    checkOut.value = chosen.checkOut;
    this.renderDates();
  }

  private onCalendarKey(event: KeyboardEvent): void {
    const day = event.target instanceof HTMLElement ? event.target.dataset['day'] : undefined;
    const picked = event.key === 'Enter' || event.key === ' ';
    const next = day && (picked ? day : moveFocus(day, event.key));
    if (!next) return;
    event.preventDefault();
    if (picked) this.pickDay(next);
    else {
      this.store.moveTo(next, this.monthsShown());
      this.renderCalendar();
    }
    this.querySelector<HTMLElement>(`[data-day="${next}"]`)?.focus();
  }

  private monthsShown(): number {
    return window.matchMedia('(min-width: 40rem)').matches ? 2 : 1;
  }

  /** The month grids, drawn from the inputs: the inputs and the calendar always agree. */
  private renderCalendar(): void {
    const dates = this.dates();
    if (!dates) return;
    const { root, rules } = dates;
    const checkIn = dates.checkIn.value;
    // A check-in in the past (a stale link, an old draft) opens today's month, not that one.
    this.store.open(isIsoDate(checkIn) && checkIn >= rules.today ? checkIn : rules.today);
    const { month, focusDay } = this.store.$calendar.get();
    const checkOut = dates.checkOut.value;
    const hadFocus = root.contains(document.activeElement);
    const format = (date: string, options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat(this.locale, { ...options, timeZone: 'UTC' }).format(
        new Date(`${date}T00:00:00Z`),
      );
    const shift = (by: string, label: string, text: string) =>
      `<button type="button" class="button secondary" data-shift="${by}" aria-label="${escapeHtml(this.say(label))}">${text}</button>`;
    // 1 to 7 January 2024: a week from Monday, for the weekday names.
    const weekdays = monthWeeks('2024-01-01')[0] ?? [];
    const head = weekdays.map((day) => {
      const name = format(day, { weekday: 'short' });
      return `<th scope="col" abbr="${escapeHtml(name)}">${escapeHtml(name.slice(0, 2))}</th>`;
    });
    const range = isIsoDate(checkIn) && isIsoDate(checkOut);
    const cell = (day: string) => {
      if (!day) return '<td></td>';
      const attributes = [
        `data-day="${day}" tabindex="${day === focusDay ? 0 : -1}"`,
        `aria-label="${escapeHtml(longDate(day, this.locale))}"`,
        `aria-selected="${day === checkIn || day === checkOut}"`,
        selectable(day, { checkIn, checkOut }, rules) ? '' : 'aria-disabled="true"',
        range && day > checkIn && day < checkOut ? 'class="in-range"' : '',
      ];
      return `<td ${attributes.join(' ')}>${Number(day.slice(8))}</td>`;
    };
    const grids = Array.from({ length: this.monthsShown() }, (_, i) => {
      const shown = addMonths(month, i);
      const weeks = monthWeeks(shown).map((week) => `<tr>${week.map(cell).join('')}</tr>`);
      const caption = escapeHtml(format(shown, { month: 'long', year: 'numeric' }));
      return `<table role="grid">
        <caption>${caption}</caption>
        <thead><tr>${head.join('')}</tr></thead>
        <tbody>${weeks.join('')}</tbody>
      </table>`;
    });
    root.innerHTML = `<div class="calendar-nav">
      ${shift('-1', 'prevMonth', '‹')}
      <span class="muted">${escapeHtml(this.say('calendarHint'))}</span>
      ${shift('1', 'nextMonth', '›')}
    </div>${grids.join('')}`;
    // A focus day outside the months shown gets no tab stop: give it to the first day shown.
    if (!root.querySelector('[tabindex="0"]'))
      root.querySelector('[data-day]')?.setAttribute('tabindex', '0');
    if (hadFocus) root.querySelector<HTMLElement>(`[data-day="${focusDay}"]`)?.focus();
  }
}

if (!customElements.get('masthead-booking'))
  customElements.define('masthead-booking', MastheadBooking);
