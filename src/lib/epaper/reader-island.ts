/**
 * The browser side of src/components/epaper/Reader.astro: links, keys, swipes, pinches and double
 * taps turn and zoom in place (without it each control is a plain link or form). Page images come
 * only from the thumbnails' `data-src|avif|webp`: the addresses the server signed for this visitor.
 */
import {
  clampPage,
  isFormField,
  keyAction,
  LAYOUT_MEDIA,
  neighboursIn,
  parseZoom,
  pinchDirection,
  positionLabel,
  readerPath,
  readerPlace,
  readerSizes,
  scrollToShow,
  spreadOf,
  swipeDirection,
  zoomLabel,
  zoomNext,
  zoomStep,
  type ReaderSay,
  type Zoom,
} from './reader.ts';
import { queryWithout } from '../reading/pagination.ts';
import { sayerOf } from '../i18n/say.ts';

/** Full screen: how long the toolbar and thumbnails stay after the pointer or a key last asked. */
const CONTROLS_IDLE_MS = 2500;

class Reader {
  readonly count: number;
  readonly title: string;
  readonly say: ReaderSay;
  /** Page images on screen whose picture failed to load: the notice names their pages. */
  readonly failed = new Set<HTMLImageElement>();
  page: number;
  /** The page whose images are on screen: `page` once they have loaded. */
  shown: number;
  /** Counts turns, so a slow load that a later turn overtook changes nothing. */
  turns = 0;
  zoom: Zoom;
  loading = false;
  /** The next pages, loading off screen (`warmNext`). */
  warm: HTMLImageElement[] = [];
  toolbarHeight = 0;
  idle: ReturnType<typeof setTimeout> | undefined;
  readonly partner: HTMLImageElement | null;
  readonly live: HTMLElement | null;
  readonly toolbar: HTMLElement | null;
  readonly thumbs = new Map<number, HTMLAnchorElement>();
  /** What the document's title adds to the page's own (` · Site`); null when it cannot be told. */
  readonly titleSuffix: string | null;

  readonly root: HTMLElement;
  readonly image: HTMLImageElement;
  readonly viewport: HTMLElement;

  constructor(root: HTMLElement, image: HTMLImageElement, viewport: HTMLElement) {
    this.root = root;
    this.image = image;
    this.viewport = viewport;
    this.count = Number(root.dataset.count) || 1;
    this.title = root.dataset.title ?? '';
    this.page = clampPage(Number(root.dataset.page), this.count);
    this.shown = this.page;
    this.zoom = parseZoom(root.dataset.zoom);
    this.partner = this.$('[data-partner-image]');
    this.live = this.$('[data-live]');
    this.toolbar = this.$('.toolbar');
    for (const link of root.querySelectorAll<HTMLAnchorElement>('.thumbs a[data-go]')) {
      this.thumbs.set(Number(link.dataset.go), link);
    }
    this.say = sayerOf(root);
    const opening = this.pageTitle(this.page);
    this.titleSuffix = document.title.startsWith(opening)
      ? document.title.slice(opening.length)
      : null;
  }

  /** The page's title as the server writes it: the edition's, with the page number after page 1. */
  pageTitle(page: number): string {
    return page > 1 ? this.say('page.title', { title: this.title, page }) : this.title;
  }

  $<E extends HTMLElement>(selector: string): E | null {
    return this.root.querySelector<E>(selector);
  }

  spreads(): boolean {
    return matchMedia(LAYOUT_MEDIA.spread).matches;
  }

  pagesOf(page: number): number[] {
    return this.spreads() ? spreadOf(page, this.count) : [page];
  }

  /** The address of `target` at `atZoom`, with the page's fragment unless told otherwise. */
  urlFor(target: number, atZoom: number, hash = location.hash): string {
    const query = queryWithout(location.search, 'page', 'zoom');
    return `${readerPath(location.pathname, target, atZoom)}${query}${hash}`;
  }

  setLink(link: HTMLAnchorElement | null, target: number | null, attr: string): void {
    if (!link) return;
    if (target === null) {
      link.removeAttribute('href');
      link.setAttribute('aria-disabled', 'true');
    } else {
      link.href = attr === 'go' ? this.urlFor(target, this.zoom) : this.urlFor(this.page, target);
      link.removeAttribute('aria-disabled');
    }
    link.setAttribute(`data-${attr}`, target === null ? '' : String(target));
  }

  refreshLinks(): void {
    const { count, zoom } = this;
    const focused = document.activeElement;
    /** Each control and its counterpart (previous ↔ next, zoom out ↔ zoom in). */
    const pairs: [HTMLAnchorElement | null, HTMLAnchorElement | null][] = [];
    for (const group of this.root.querySelectorAll<HTMLElement>('[data-mode]')) {
      const spread = group.dataset.mode === 'spread';
      const near = neighboursIn(spread, this.page, count);
      const prev = group.querySelector<HTMLAnchorElement>('[data-nav="prev"]');
      const next = group.querySelector<HTMLAnchorElement>('[data-nav="next"]');
      this.setLink(prev, near.prev, 'go');
      this.setLink(next, near.next, 'go');
      pairs.push([prev, next]);
      const position = group.querySelector('[data-position]');
      if (position) {
        const pages = spread ? spreadOf(this.shown, count) : [this.shown];
        position.textContent = positionLabel(pages, count, this.say);
      }
    }
    const [out, into] = this.root.querySelectorAll<HTMLAnchorElement>('[data-zoom-to]');
    this.setLink(out ?? null, zoomNext(zoom, -1), 'zoom-to');
    this.setLink(into ?? null, zoomNext(zoom, 1), 'zoom-to');
    pairs.push([out ?? null, into ?? null]);
    for (const [number, link] of this.thumbs) link.href = this.urlFor(number, zoom);
    const reload = this.$<HTMLAnchorElement>('[data-reload]');
    if (reload) reload.href = this.urlFor(this.page, zoom, '');
    // A control just disabled under the keyboard's focus (Next on the last page, + at the largest
    // zoom) is no longer focusable: the focus goes to its counterpart, or the page, not to <body>.
    if (focused instanceof HTMLAnchorElement && !focused.hasAttribute('href')) {
      const pair = pairs.find((both) => both.includes(focused));
      if (pair) {
        const other = pair.find((link) => link !== focused);
        (other?.hasAttribute('href') ? other : this.viewport).focus({ preventScroll: true });
      }
    }
  }

  sourcesOf(img: HTMLImageElement): HTMLSourceElement[] {
    return [...(img.parentElement?.querySelectorAll('source') ?? [])];
  }

  show(img: HTMLImageElement, number: number): void {
    const thumb = this.thumbs.get(number);
    img.width = Number(thumb?.dataset.width) || img.width;
    img.height = Number(thumb?.dataset.height) || img.height;
    for (const source of this.sourcesOf(img)) {
      source.sizes = readerSizes(this.zoom);
      source.srcset = thumb?.dataset[source.type.slice('image/'.length)] ?? '';
    }
    img.src = thumb?.dataset.src ?? '';
    img.alt = this.say('reader.pageAlt', { page: number, title: this.title });
    if (this.failed.delete(img)) this.showFailed();
  }

  /** A page image failed: the notice names it, and a screen reader hears it (politely). */
  async fail(img: HTMLImageElement): Promise<void> {
    if (img.hidden || this.failed.has(img)) return;
    this.failed.add(img);
    // A subscriber's page the route refuses: the page's own address shows the paywall instead.
    // 401: signed out (in another tab); 403 after a turn (the opening pages were let in): let out.
    if (this.root.dataset.access === 'private') {
      const head = await fetch(img.currentSrc || img.src, { method: 'HEAD' }).catch(() => null);
      if (head?.status === 401 || (head?.status === 403 && this.turns > 0))
        return location.reload();
      if (!this.failed.has(img)) return; // turned or loaded meanwhile
    }
    const words = this.showFailed();
    if (this.live) this.live.textContent = words;
  }

  /** Shows or hides the failure notice for `failed`; answers its words. */
  showFailed(): string {
    const notice = this.$('[data-failed]');
    // A failed image shows the current page, or (the partner) the other page of its spread.
    const other = spreadOf(this.page, this.count).find((n) => n !== this.page) ?? this.page;
    const pages = [...this.failed].map((img) => (img === this.partner ? other : this.page));
    pages.sort((a, b) => a - b);
    const words = pages.length ? positionLabel(pages, this.count, this.say, 'failed') : '';
    if (!notice) return words;
    notice.hidden = pages.length === 0;
    // One page of a spread on screen: the notice sits over that page, not the one that loaded.
    const [only] = this.failed;
    const partnerSide = this.partner?.dataset.side;
    const drawn = this.partner !== null && this.partner.getClientRects().length > 0;
    const side = only === this.partner ? partnerSide : partnerSide === 'left' ? 'right' : 'left';
    if (pages.length === 1 && drawn && side) notice.dataset.side = side;
    else delete notice.dataset.side;
    const text = this.$('[data-failed-text]');
    if (text) text.textContent = words;
    return words;
  }

  measureToolbar(): void {
    this.toolbarHeight = this.toolbar?.offsetHeight ?? 0;
    if (this.toolbar) this.root.style.setProperty('--toolbar', `${this.toolbarHeight}px`);
  }

  /** Scrolls the page (or spread) to just under the toolbar, unless it is wholly in view already. */
  reveal(): void {
    if (document.fullscreenElement) return;
    const box = this.viewport.getBoundingClientRect();
    const under = this.toolbar?.getBoundingClientRect().bottom ?? 0;
    if (box.top >= under - 1 && box.bottom <= innerHeight + 1) return;
    this.viewport.scrollIntoView({ block: 'start', inline: 'nearest', behavior: 'instant' });
  }

  /** Scrolls the thumbnail strip sideways to `thumb`, never the page itself. */
  follow(thumb: HTMLElement): void {
    const strip = this.$('.thumbs ol');
    if (!strip) return;
    const item = (thumb.parentElement ?? thumb).getBoundingClientRect();
    const view = strip.getBoundingClientRect();
    strip.scrollLeft += scrollToShow(
      { start: item.left, end: item.right },
      { start: view.left, end: view.right },
    );
  }

  /** Page, zoom and loading on the page: address, title, notice, zoom level and every link. */
  render(): void {
    const { page, zoom, root, loading } = this;
    Object.assign(root.dataset, { page, zoom });
    this.viewport.setAttribute('aria-busy', String(loading));
    const cue = this.$('[data-loading-cue]');
    const words = this.$('[data-loading-text]');
    const level = this.$('[data-zoom-label]');
    if (cue) cue.hidden = !loading;
    if (words)
      words.textContent = positionLabel(this.pagesOf(page), this.count, this.say, 'loading');
    if (level) level.textContent = zoomLabel(zoom);
    this.refreshLinks();
    // A turn is a history entry, as a link is without JavaScript: Back shows the page before.
    const url = this.urlFor(page, zoom);
    if (readerPlace(location.pathname, this.count).page === page)
      history.replaceState(history.state, '', url);
    else history.pushState(history.state, '', url);
    // The tab, a bookmark and the history name the page the address now names.
    if (this.titleSuffix !== null) document.title = this.pageTitle(page) + this.titleSuffix;
  }

  /** After a turn: the labels claim the new pages once every page image drawn has loaded. */
  settle(): void {
    const turn = ++this.turns;
    const drawn = [this.image, this.partner].filter(
      (img): img is HTMLImageElement => img !== null && img.getClientRects().length > 0,
    );
    for (const img of drawn) {
      // The partner is lazy (phones never draw it); drawn, it is on screen and must load now.
      img.loading = 'eager';
      // Until its picture arrives the browser draws the old one (the other side, after a turn to
      // an odd page of a spread): an empty page instead, under the loading notice.
      img.toggleAttribute('data-pending', !img.complete);
    }
    // decode() settles on load or failure, and when a zoom asked for a wider picture: wait on then.
    const wait = (): void => {
      if (turn !== this.turns) return;
      const pending = drawn.filter((img) => !img.complete);
      this.loading = pending.length > 0;
      if (!this.loading) this.shown = this.page;
      this.render();
      if (this.loading) void Promise.allSettled(pending.map((img) => img.decode())).then(wait);
    };
    wait();
  }

  /** Shows `target`; false when a page of its spread is outside the rendered thumbnails (the link loads it). */
  go(target: number): boolean {
    const { count, thumbs, partner } = this;
    const thumb = thumbs.get(target);
    const other = spreadOf(target, count).find((n) => n !== target);
    if (!thumb?.dataset.src || (other !== undefined && !thumbs.get(other)?.dataset.src))
      return false;
    if (target === this.page) return true;
    thumbs.get(this.page)?.removeAttribute('aria-current');
    thumb.setAttribute('aria-current', 'page');
    this.page = target;
    this.show(this.image, target);
    if (partner) {
      partner.hidden = other === undefined;
      if (partner.hidden && this.failed.delete(partner)) this.showFailed();
      if (other !== undefined) this.show(partner, other);
      const side = other !== undefined && other < target ? 'left' : 'right';
      partner.dataset.side = side;
      // In page order, as a screen reader reads them: the left page first.
      const [mine, theirs] = [this.image.parentElement, partner.parentElement];
      if (mine && theirs)
        mine.insertAdjacentElement(side === 'left' ? 'beforebegin' : 'afterend', theirs);
    }
    const goto = this.$<HTMLInputElement>('[data-goto]');
    if (goto) goto.value = String(target);
    // Spoken at once: a screen reader has the new pages' alt texts before their pictures arrive.
    if (this.live) this.live.textContent = positionLabel(this.pagesOf(target), count, this.say);
    this.settle();
    this.follow(thumb);
    this.viewport.scrollTop = 0;
    this.reveal();
    this.warmNext();
    return true;
  }

  /**
   * Warms the next page (or spread) at the width this screen picks, so the common "next" is instant:
   * detached copies of the page's <picture>, kept (the browser drops a picture nothing holds).
   */
  warmNext(): void {
    const next = neighboursIn(this.spreads(), this.page, this.count).next;
    this.warm = (next === null ? [] : this.pagesOf(next)).flatMap((number) => {
      const copy = this.image.parentElement?.cloneNode(true);
      const img = copy instanceof Element ? copy.querySelector('img') : null;
      if (!this.thumbs.get(number)?.dataset.src || !img) return [];
      img.fetchPriority = 'auto';
      this.show(img, number);
      return [img];
    });
  }

  goOrLoad(target: number): void {
    if (!this.go(target)) location.assign(this.urlFor(target, this.zoom));
  }

  setZoom(next: Zoom): void {
    if (next === this.zoom) return;
    this.zoom = next;
    // A larger zoom asks the browser for a wider image from the same srcset.
    for (const img of [this.image, this.partner]) {
      if (img) for (const source of this.sourcesOf(img)) source.sizes = readerSizes(next);
    }
    if (this.live) this.live.textContent = `${this.say('reader.zoom')} ${zoomLabel(next)}`;
    this.render();
  }

  hideControls(): void {
    clearTimeout(this.idle);
    delete this.root.dataset.controls;
  }

  showControls(): void {
    if (document.fullscreenElement !== this.root) return;
    this.root.dataset.controls = '';
    clearTimeout(this.idle);
    const later = () => {
      // Not while the pointer rests on them.
      if (this.root.querySelector('.toolbar:hover, .thumbs:hover'))
        this.idle = setTimeout(later, CONTROLS_IDLE_MS);
      else this.hideControls();
    };
    this.idle = setTimeout(later, CONTROLS_IDLE_MS);
  }
}

function listenToControls(reader: Reader): void {
  reader.root.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    const link =
      event.target instanceof Element && event.target.closest<HTMLAnchorElement>('a[href]');
    if (!link) return;
    if (link.dataset.go && reader.go(Number(link.dataset.go))) event.preventDefault();
    else if (link.dataset.zoomTo) {
      event.preventDefault();
      reader.setZoom(parseZoom(link.dataset.zoomTo));
    }
  });

  // "Go to page" turns in place too, or loads the page's own address: a static copy serves no
  // `?page=` (the browser checked the number against min and max before this event).
  const goto = reader.$<HTMLInputElement>('[data-goto]');
  if (goto?.form) goto.form.hidden = false;
  goto?.form?.addEventListener('submit', (event) => {
    event.preventDefault();
    reader.goOrLoad(clampPage(goto.valueAsNumber, reader.count));
  });

  // Back and Forward between turned pages: the address names the page and zoom to show.
  addEventListener('popstate', () => {
    const place = readerPlace(location.pathname, reader.count);
    if (reader.go(place.page)) reader.setZoom(place.zoom);
    else location.reload();
  });

  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented) return;
    const active = document.activeElement;
    const action = keyAction({
      key: event.key,
      page: reader.page,
      pageCount: reader.count,
      zoom: reader.zoom,
      modified: event.ctrlKey || event.metaKey || event.altKey,
      inField: active instanceof HTMLElement && isFormField(active),
      spread: reader.spreads(),
    });
    if (!action) {
      reader.showControls();
      return;
    }
    event.preventDefault();
    if (action.type === 'zoom') reader.setZoom(action.zoom);
    else if (action.type === 'pan') {
      const { viewport } = reader;
      viewport.scrollBy({ left: (action.direction * viewport.clientWidth) / 3 });
    } else reader.goOrLoad(action.page);
  });
}

/**
 * Double click or tap zooms; a sideways swipe turns the page, two fingers pinch. Zoom steps through
 * the levels and the viewport scrolls to pan: a pan-zoom library (@panzoom/panzoom, ~4 kB gzip, as
 * much as this island) would scale a transform and leave the page turns to this code anyway.
 */
function listenToGestures(reader: Reader): void {
  const { viewport } = reader;
  // Double click or double tap: 100 % ↔ 200 %, keeping the spot under the finger in view.
  viewport.addEventListener('dblclick', (event) => {
    const box = viewport.getBoundingClientRect();
    const x = (viewport.scrollLeft + event.clientX - box.left) / viewport.scrollWidth;
    const y = (viewport.scrollTop + event.clientY - box.top) / viewport.scrollHeight;
    reader.setZoom(reader.zoom === 1 ? 2 : 1);
    viewport.scrollLeft = x * viewport.scrollWidth - (event.clientX - box.left);
    viewport.scrollTop = y * viewport.scrollHeight - (event.clientY - box.top);
  });

  const touches = new Map<number, { x0: number; y0: number; x: number; y: number }>();
  let pinchStart = 0;
  const spanOf = () => {
    const [a, b] = [...touches.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  viewport.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch') return;
    const at = { x0: event.clientX, y0: event.clientY, x: event.clientX, y: event.clientY };
    touches.set(event.pointerId, at);
    if (touches.size === 2) pinchStart = spanOf();
  });
  viewport.addEventListener('pointermove', (event) => {
    const at = touches.get(event.pointerId);
    if (at) Object.assign(at, { x: event.clientX, y: event.clientY });
  });
  const release = (event: PointerEvent) => {
    const at = touches.get(event.pointerId);
    if (!at) return;
    if (touches.size === 2) {
      const direction = pinchDirection(pinchStart, spanOf());
      if (direction) reader.setZoom(zoomStep(reader.zoom, direction));
      pinchStart = -1; // the other finger's release is not a swipe
    } else if (event.type === 'pointerup' && pinchStart !== -1 && reader.zoom === 1) {
      // A sideways swipe turns (unzoomed: zoomed in, the finger pans).
      const direction = swipeDirection(at.x - at.x0, at.y - at.y0);
      const near = neighboursIn(reader.spreads(), reader.page, reader.count);
      const target = direction === 1 ? near.next : direction === -1 ? near.prev : null;
      if (target !== null) reader.goOrLoad(target);
    }
    touches.delete(event.pointerId);
    if (touches.size === 0) pinchStart = 0;
  };
  viewport.addEventListener('pointerup', release);
  viewport.addEventListener('pointercancel', release);
}

/** The full-screen button where the browser allows it; in full screen the controls come when asked. */
function offerFullscreen(reader: Reader): void {
  const { root, say } = reader;
  const fullscreen = root.querySelector<HTMLButtonElement>('[data-fullscreen]');
  if (fullscreen && document.fullscreenEnabled) {
    fullscreen.hidden = false;
    fullscreen.addEventListener('click', () => {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void root.requestFullscreen();
    });
    document.addEventListener('fullscreenchange', () => {
      const on = document.fullscreenElement === root;
      const word = fullscreen.querySelector('[data-fullscreen-word]');
      if (word) word.textContent = say(on ? 'reader.exitFullscreen' : 'reader.fullscreen');
      reader.hideControls();
      // The page, not the button, holds the focus: the toolbar stays out of the way until asked for.
      if (on) reader.viewport.focus({ preventScroll: true });
    });
  }
  // Full screen: the pointer moving, a tap or a key other than the reader's shows the toolbar and
  // thumbnails for a while (CSS keeps them while a keyboard user's focus is inside).
  root.addEventListener('pointermove', (event) => {
    if (event.pointerType !== 'touch') reader.showControls();
  });
  root.addEventListener('click', () => reader.showControls());
}

/** Places the opening page: the strip at its thumbnail, the spread under the measured toolbar. */
function place(reader: Reader): void {
  const { toolbar, viewport } = reader;
  const current = reader.thumbs.get(reader.page);
  if (current) reader.follow(current);
  reader.measureToolbar();
  if (toolbar) {
    new ResizeObserver(() => {
      // Keep a spread that sat just under the toolbar there when the toolbar's height changes.
      const docked = Math.abs(viewport.getBoundingClientRect().top - reader.toolbarHeight) < 2;
      reader.measureToolbar();
      if (docked) reader.reveal();
    }).observe(toolbar);
  }
  // A fresh visit (a deep link, a link from the edition list) opens on the page, not the header;
  // a reload or Back keeps the scroll position the browser restores.
  const [navigation] = performance.getEntriesByType('navigation');
  const type = navigation instanceof PerformanceNavigationTiming ? navigation.type : 'navigate';
  const fresh = type !== 'reload' && type !== 'back_forward';
  if (fresh && scrollY === 0 && !location.hash) {
    reader.reveal();
    // Once more when everything has loaded (late styles or fonts), unless the reader scrolled.
    const settled = scrollY;
    addEventListener('load', () => scrollY === settled && reader.reveal(), { once: true });
  }
}

/** Page images that fail show the notice (also one that failed before this script ran). */
function watchFailures(reader: Reader): void {
  for (const img of [reader.image, reader.partner]) {
    if (!img) continue;
    img.addEventListener('error', () => {
      img.removeAttribute('data-pending');
      void reader.fail(img);
    });
    img.addEventListener('load', () => {
      img.removeAttribute('data-pending');
      if (reader.failed.delete(img)) reader.showFailed();
    });
    if (img.complete && img.naturalWidth === 0 && img.getClientRects().length > 0)
      void reader.fail(img);
  }
  // Asks again for each failed image (setting `src` makes the browser retry a failed address).
  reader.$('[data-retry]')?.addEventListener('click', () => {
    for (const img of reader.failed) {
      for (const source of reader.sourcesOf(img))
        source.srcset = source.getAttribute('srcset') ?? '';
      img.src = img.getAttribute('src') ?? '';
    }
  });
}

function enhance(root: HTMLElement): void {
  const image = root.querySelector<HTMLImageElement>('[data-page-image]');
  const viewport = root.querySelector<HTMLElement>('[data-viewport]');
  if (!image || !viewport) return;
  const reader = new Reader(root, image, viewport);
  listenToControls(reader);
  listenToGestures(reader);
  offerFullscreen(reader);
  watchFailures(reader);
  place(reader);
  // Once the pages on screen have loaded, the next ones load too.
  if (document.readyState === 'complete') reader.warmNext();
  else addEventListener('load', () => reader.warmNext(), { once: true });
  root.querySelector<HTMLElement>('[data-hint]')?.removeAttribute('hidden');
}

for (const root of document.querySelectorAll<HTMLElement>('[data-reader]')) enhance(root);
