import { addDays, isIsoDate, nightsBetween } from '../domain/dates.ts';
import { addMonths, monthWeeks, moveFocus, pick, selectable } from './calendar.ts';
import { bookingStore } from './booking.store.ts';
import type { CalendarRules } from './calendar.ts';
import { stayDate as longDate } from '../../i18n/format.ts';
import { sayer, type Say } from '../../i18n/say.ts';

/**
 * `<masthead-booking>`: enhances the server-rendered booking steps (BookingSteps.astro), which work
 * on their own without JavaScript. It sends each step's form with fetch and swaps in the step the
 * server answers (no reload, no resubmission), makes each step a history entry, keeps what the
 * guest typed across Back and reload, shows a busy state on slow answers, adds a date-range
 * calendar, and tells a partner page (when embedded) what happened, without personal data. Its state
 * (the request under way, the calendar's months, the events sent) lives in booking.store.ts.
 */

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
type Values = Record<string, string>;
/** A history entry's step: its markup as shown, and what the guest had typed when leaving it. */
interface Entry {
  html: string;
  step: string;
  url: string;
  values: Values;
}

/** The header the server answers with a step in place instead of a redirect (steps/page.ts). */
const STEP_HEADER = 'x-masthead-step';
/** Waiting this long shows the busy text (a quick answer never flashes it). */
const BUSY_DELAY_MS = 400;

function el<T extends Element>(tag: string, attrs: Record<string, string> = {}, text = ''): T {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node as unknown as T;
}

function json<T>(raw: string | undefined): T | undefined {
  try {
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

class MastheadBooking extends HTMLElement {
  private locale = 'en';
  private say: Say = (key) => key;
  private parentOrigin = '';
  private busyTimer: ReturnType<typeof setTimeout> | undefined;
  private store = bookingStore();

  connectedCallback(): void {
    if (this.dataset['ready']) return;
    this.locale = this.dataset['locale'] || 'en';
    this.say = sayer(json(this.dataset['text']) ?? {}, this.locale);
    this.parentOrigin = this.dataset['parentOrigin'] ?? '';
    this.store.$busy.listen((busy) => this.renderBusy(busy));
    this.addEventListener('submit', (event) => this.onSubmit(event));
    this.addEventListener('click', (event) => this.onClick(event));
    this.addEventListener('input', (event) => this.onInput(event));
    this.addEventListener('change', (event) => this.onChange(event));
    this.addEventListener('keydown', (event) => this.onCalendarKey(event));
    window.addEventListener('popstate', (event) => this.onPopState(event));
    window.addEventListener('pagehide', () => this.remember());
    if (this.parentOrigin && 'ResizeObserver' in window) {
      // The framed document's body has no minimum height, so it measures the content alone.
      new ResizeObserver(() =>
        this.postToParent({ type: 'masthead:resize', height: document.body.scrollHeight }),
      ).observe(this);
    }
    this.restoreDraft();
    this.enter();
    history.replaceState({ ...(history.state as object | null), booking: this.entry() }, '');
    this.dataset['ready'] = 'true';
  }

  // Sending a step.

  private onSubmit(event: SubmitEvent): void {
    const form = event.target as HTMLFormElement;
    event.preventDefault();
    // A second click while the first is on its way sends nothing (the server also books once per key).
    if (this.store.$busy.get()) return;
    const data = new FormData(form, event.submitter);
    if (form.method === 'get') {
      const url = new URL(form.action);
      url.search = new URLSearchParams(data as unknown as Record<string, string>).toString();
      void this.load(url.href, { method: 'GET' }, 'searching');
    } else {
      void this.load(form.action, { method: 'POST', body: data }, 'sending');
    }
  }

  private onClick(event: MouseEvent): void {
    const target = event.target as Element;
    if (target.closest('[data-action="print"]')) {
      window.print();
      return;
    }
    const back = target.closest<HTMLAnchorElement>('a[data-back]');
    if (back && !event.metaKey && !event.ctrlKey && !event.shiftKey && event.button === 0) {
      event.preventDefault();
      if (!this.store.$busy.get()) void this.load(back.href, { method: 'GET' }, 'searching');
      return;
    }
    const shift = target.closest<HTMLElement>('[data-shift]')?.dataset['shift'];
    if (shift) {
      this.store.shift(Number(shift));
      this.renderCalendar();
      return;
    }
    const day = target.closest<HTMLElement>('[data-day]')?.dataset['day'];
    if (day) this.pickDay(day);
  }

  /** Asks the server for a step and shows it; on failure the guest keeps the form and its values. */
  private async load(url: string, init: RequestInit, busy: 'searching' | 'sending'): Promise<void> {
    this.remember();
    this.store.$busy.set(busy);
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
      history.pushState(
        { ...(history.state as object | null), booking: this.entry() },
        '',
        this.dataset['url'],
      );
      this.focusStep();
    } catch {
      this.problem(this.say('offline'));
    } finally {
      this.store.$busy.set(null);
    }
  }

  private show(html: string, step: string, url: string): void {
    this.innerHTML = html;
    this.dataset['step'] = step;
    this.dataset['url'] = url;
    this.store.newStep();
    this.enter();
  }

  /** What a new step adds: the calendar, the print button, its partner events. */
  private enter(): void {
    this.querySelector<HTMLElement>('[data-action="print"]')?.removeAttribute('hidden');
    // "Try again" appears once the wait the message names is over (before, it could only fail).
    for (const retry of this.querySelectorAll<HTMLElement>('[data-retry-after]')) {
      const wait = Number(retry.dataset['retryAfter']) * 1000;
      setTimeout(() => retry.removeAttribute('hidden'), Number.isFinite(wait) ? wait : 0);
    }
    this.renderDates();
    this.renderCalendar();
    const search = this.querySelector<HTMLElement>('[data-search]')?.dataset['search'];
    if (search) this.tell(`search${search}`, 'search', json(search) ?? {});
    const booked = this.querySelector<HTMLElement>('[data-booked]')?.dataset['booked'];
    const facts = json<Record<string, unknown>>(booked);
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

  private problem(text: string): void {
    let box = this.querySelector<HTMLElement>('[data-message]');
    if (!box) {
      box = el('div', {
        class: 'booking-message notice problem',
        role: 'alert',
        'data-message': '',
      });
      this.querySelector('[data-busy]')?.after(box);
    }
    box.replaceChildren(el('span', {}, text));
  }

  /** A request under way: busy and its buttons inert, the busy text only on a slow answer. */
  private renderBusy(busy: 'searching' | 'sending' | null): void {
    const pending = busy !== null;
    this.toggleAttribute('aria-busy', pending);
    for (const button of this.querySelectorAll('button[type="submit"]'))
      button.setAttribute('aria-disabled', String(pending));
    const slot = this.querySelector<HTMLElement>('[data-busy]');
    clearTimeout(this.busyTimer);
    if (!busy) {
      slot?.replaceChildren();
      return;
    }
    this.busyTimer = setTimeout(() => {
      if (this.store.$busy.get())
        slot?.replaceChildren(
          el('span', { class: 'spinner', 'aria-hidden': 'true' }),
          this.say(busy),
        );
    }, BUSY_DELAY_MS);
  }

  // History and what the guest typed.

  private entry(): Entry {
    return {
      html: this.innerHTML,
      step: this.dataset['step'] ?? '',
      url: this.dataset['url'] ?? location.href,
      values: this.values(),
    };
  }

  /** The step as left: its typed values in the history entry (Back) and the tab's storage (reload). */
  private remember(): void {
    if (!this.dataset['ready']) return;
    const values = this.values();
    history.replaceState({ ...(history.state as object | null), booking: this.entry() }, '');
    try {
      sessionStorage.setItem(this.draftKey(), JSON.stringify({ url: this.dataset['url'], values }));
    } catch {
      // Storage off (private mode): Back still keeps the values in the history entry.
    }
  }

  private onPopState(event: PopStateEvent): void {
    const entry = (event.state as { booking?: Entry } | null)?.booking;
    if (!entry) return;
    this.show(entry.html, entry.step, entry.url);
    this.fill(entry.values);
    this.renderDates();
    this.renderCalendar();
    this.querySelector<HTMLElement>('[data-heading]')?.focus();
  }

  private draftKey(): string {
    return `masthead-booking:${this.dataset['storageKey'] ?? ''}`;
  }

  /** After a reload: what was typed on this very step, which the server's page cannot know. */
  private restoreDraft(): void {
    try {
      const saved = json<{ url: string; values: Values }>(
        sessionStorage.getItem(this.draftKey()) ?? '',
      );
      if (saved && saved.url === this.dataset['url']) this.fill(saved.values);
    } catch {
      // Nothing kept.
    }
  }

  private controls(): Control[] {
    return [...this.querySelectorAll<Control>('input[name], select[name], textarea[name]')].filter(
      (control) => control.type !== 'hidden',
    );
  }

  private values(): Values {
    const values: Values = {};
    for (const control of this.controls()) {
      if (control instanceof HTMLInputElement && control.type === 'radio') {
        if (control.checked) values[control.name] = control.value;
      } else values[control.name] = control.value;
    }
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

  /** What the guest typed, kept in this step's history entry as they type (Back then Forward). */
  private keepValues(): void {
    const state = history.state as { booking?: Entry } | null;
    if (state?.booking)
      history.replaceState({ ...state, booking: { ...state.booking, values: this.values() } }, '');
  }

  private onInput(event: Event): void {
    this.keepValues();
    const { name, value } = event.target as Control;
    if (name === 'checkIn') this.store.typed(value);
    if (name === 'checkIn' || name === 'checkOut') {
      this.renderDates();
      this.renderCalendar();
    }
  }

  private onChange(event: Event): void {
    this.keepValues();
    const input = event.target as HTMLInputElement;
    if (input.name !== 'roomTypeId' || !input.checked) return;
    this.tell(`room${input.dataset['chosen']}`, 'room-chosen', json(input.dataset['chosen']) ?? {});
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

  private dateInputs(): [HTMLInputElement, HTMLInputElement] | null {
    const checkIn = this.querySelector<HTMLInputElement>('input[name="checkIn"]');
    const checkOut = this.querySelector<HTMLInputElement>('input[name="checkOut"]');
    return checkIn && checkOut ? [checkIn, checkOut] : null;
  }

  private rules(): CalendarRules | undefined {
    return json(this.querySelector<HTMLElement>('[data-date-calendar]')?.dataset['rules']);
  }

  private renderDates(): void {
    const inputs = this.dateInputs();
    const rules = this.rules();
    if (!inputs || !rules) return;
    const [checkIn, checkOut] = inputs;
    const from = isIsoDate(checkIn.value) ? checkIn.value : rules.today;
    checkOut.min = addDays(from, rules.minNights);
    checkOut.max = addDays(from, rules.maxNights);
    const nights = this.querySelector<HTMLElement>('[data-nights]');
    const n = nightsBetween(checkIn.value, checkOut.value);
    if (nights) nights.textContent = n > 0 ? this.say('nights', { count: n }) : '';
  }

  private pickDay(day: string): void {
    const inputs = this.dateInputs();
    const rules = this.rules();
    if (!inputs || !rules) return;
    const [checkIn, checkOut] = inputs;
    const state = {
      checkIn: checkIn.value,
      checkOut: checkOut.value,
      month: this.store.$calendar.get().month,
      focus: day,
    };
    const chosen = pick(day, state, rules);
    if (!chosen) return;
    this.store.focus(day);
    checkIn.value = chosen.checkIn;
    checkOut.value = chosen.checkOut;
    this.renderDates();
    this.renderCalendar();
  }

  private onCalendarKey(event: KeyboardEvent): void {
    const day = (event.target as HTMLElement).dataset['day'];
    if (!day) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.pickDay(day);
      this.querySelector<HTMLElement>(`[data-day="${day}"]`)?.focus();
      return;
    }
    const next = moveFocus(day, event.key);
    if (!next) return;
    event.preventDefault();
    this.store.moveTo(next, this.monthsShown());
    this.renderCalendar();
    this.querySelector<HTMLElement>(`[data-day="${next}"]`)?.focus();
  }

  private monthsShown(): number {
    return window.matchMedia('(min-width: 40rem)').matches ? 2 : 1;
  }

  /** The month grids, drawn from the inputs: the inputs and the calendar always agree. */
  private renderCalendar(): void {
    const root = this.querySelector<HTMLElement>('[data-date-calendar]');
    const inputs = this.dateInputs();
    const rules = this.rules();
    if (!root || !inputs || !rules) return;
    const [checkIn, checkOut] = inputs.map((input) => input.value) as [string, string];
    // A check-in in the past (a stale link, an old draft) opens today's month, not that one.
    const start = isIsoDate(checkIn) && checkIn >= rules.today ? checkIn : rules.today;
    this.store.open(start);
    const { month, focusDay } = this.store.$calendar.get();
    const calendar = { checkIn, checkOut, month, focus: focusDay };
    const hadFocus = root.contains(document.activeElement);
    const monthName = new Intl.DateTimeFormat(this.locale, {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const weekday = new Intl.DateTimeFormat(this.locale, { weekday: 'short', timeZone: 'UTC' });
    const shiftButton = (shift: string, label: string, text: string) =>
      el('button', { type: 'button', 'data-shift': shift, 'aria-label': this.say(label) }, text);
    const nav = el<HTMLElement>('div', { class: 'calendar-nav' });
    nav.append(
      shiftButton('-1', 'prevMonth', '‹'),
      el('span', { class: 'muted' }, this.say('calendarHint')),
      shiftButton('1', 'nextMonth', '›'),
    );
    const grids: HTMLElement[] = [];
    for (let i = 0; i < this.monthsShown(); i += 1) {
      const shown = addMonths(month, i);
      const table = el<HTMLTableElement>('table', { role: 'grid' });
      const head = el('tr');
      for (let d = 0; d < 7; d += 1) {
        const name = weekday.format(new Date(Date.UTC(2024, 0, 1 + d))); // 1 Jan 2024: a Monday.
        head.append(el('th', { scope: 'col', abbr: name }, name.slice(0, 2)));
      }
      const body = el('tbody');
      for (const week of monthWeeks(shown)) {
        const tr = el('tr');
        for (const day of week) tr.append(day ? this.dayCell(day, calendar, rules) : el('td'));
        body.append(tr);
      }
      table.append(
        el('caption', {}, monthName.format(new Date(`${shown}T00:00:00Z`))),
        el('thead'),
        body,
      );
      table.tHead?.append(head);
      grids.push(table);
    }
    root.replaceChildren(nav, ...grids);
    // A focus day outside the months shown gets no tab stop: give it to the first day shown.
    if (!root.querySelector('[tabindex="0"]'))
      root.querySelector('[data-day]')?.setAttribute('tabindex', '0');
    if (hadFocus) root.querySelector<HTMLElement>(`[data-day="${focusDay}"]`)?.focus();
  }

  private dayCell(
    day: string,
    calendar: { checkIn: string; checkOut: string; month: string; focus: string },
    rules: CalendarRules,
  ): HTMLElement {
    const { checkIn, checkOut } = calendar;
    const cell = el<HTMLElement>(
      'td',
      {
        'data-day': day,
        tabindex: day === calendar.focus ? '0' : '-1',
        'aria-label': longDate(day, this.locale),
        'aria-selected': String(day === checkIn || day === checkOut),
      },
      String(Number(day.slice(8))),
    );
    if (!selectable(day, calendar, rules)) cell.setAttribute('aria-disabled', 'true');
    if (isIsoDate(checkIn) && isIsoDate(checkOut) && day > checkIn && day < checkOut)
      cell.classList.add('in-range');
    return cell;
  }
}

if (!customElements.get('masthead-booking'))
  customElements.define('masthead-booking', MastheadBooking);
