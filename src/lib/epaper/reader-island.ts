/**
 * The browser side of src/components/epaper/Reader.astro: links, keys, swipes, pinches and double
 * taps turn and zoom in place (without it each control is a plain link or form). The state
 * (`ReaderState`, reader.ts) lives in one atom; handlers only set the next one and `draw` shows it.
 * Page images come only from the thumbnails' `data-src|avif|webp`: the addresses the server signed.
 */
import { atom } from 'nanostores';
import {
  clampPage,
  failedSide,
  isFormField,
  keyAction,
  LAYOUT_MEDIA,
  neighboursIn,
  panOf,
  parseZoom,
  partnerOf,
  pinchDirection,
  positionLabel,
  readerPath,
  readerPlace,
  readerSizes,
  scrollToShow,
  settled,
  spreadOf,
  swipeDirection,
  turned,
  withFailure,
  zoomLabel,
  zoomNext,
  type ReaderState,
  type Zoom,
} from './reader.ts';
import { isRecord } from '../content/records.ts';
import { queryWithout } from '../reading/pagination.ts';
import { sayerOf } from '../i18n/say.ts';

/** Full screen: how long the toolbar and thumbnails stay after the pointer or a key last asked. */
const CONTROLS_IDLE_MS = 2500;

function enhance(root: HTMLElement): void {
  // Reader.astro renders every part, whatever the page: a missing one is a broken template.
  const $ = <E extends HTMLElement = HTMLElement>(selector: string, scope: Element = root): E => {
    const part = scope.querySelector<E>(selector);
    if (!part) throw new Error(`The e-paper reader has no ${selector}`);
    return part;
  };
  const image = $<HTMLImageElement>('[data-page-image]');
  const partner = $<HTMLImageElement>('[data-partner-image]');
  const viewport = $('[data-viewport]');
  const toolbar = $('.toolbar');
  const live = $('[data-live]');
  const notice = $('[data-failed]');
  const goto = $<HTMLInputElement>('[data-goto]');
  const thumbs = new Map(
    [...root.querySelectorAll<HTMLAnchorElement>('.thumbs a[data-go]')].map(
      (link) => [Number(link.dataset.go), link] as const,
    ),
  );
  const count = Number(root.dataset.count) || 1;
  const title = root.dataset.title ?? '';
  const say = sayerOf(root);
  const page = clampPage(Number(root.dataset.page), count);
  const $reader = atom<ReaderState>({
    page,
    shown: page,
    zoom: parseZoom(root.dataset.zoom),
    loading: false,
    failed: [],
  });
  /** Counts turns, so a slow load that a later turn overtook changes nothing. */
  let turns = 0;
  /** The next pages, loading off screen (`warmNext`): kept, or the browser drops them. */
  const held: { warm?: HTMLImageElement[] } = {};
  let toolbarHeight = 0;
  let idle: ReturnType<typeof setTimeout> | undefined;

  // The page's title as the server writes it: the edition's, with the page number after page 1.
  const pageTitle = (n: number) => (n > 1 ? say('page.title', { title, page: n }) : title);
  const spreads = () => matchMedia(LAYOUT_MEDIA.spread).matches;
  const pagesOf = (n: number) => (spreads() ? spreadOf(n, count) : [n]);
  const speak = (words: string) => (live.textContent = words);
  const sourcesOf = (img: HTMLImageElement) => [
    ...(img.parentElement?.querySelectorAll('source') ?? []),
  ];
  /** The page an image on screen shows (the partner: the other page of the spread). */
  const pageIn = (img: HTMLImageElement, n = $reader.get().page) =>
    img === partner ? partnerOf(n, count) : n;
  const failing = (img: HTMLImageElement) => $reader.get().failed.some((n) => n === pageIn(img));

  /** The address of `target` at `zoom`, with the page's fragment unless told otherwise. */
  const urlFor = (target: number, zoom: number, hash = location.hash) =>
    `${readerPath(location.pathname, target, zoom)}${queryWithout(location.search, 'page', 'zoom')}${hash}`;

  /** Puts page `n`'s picture, as its thumbnail's signed addresses name it, into `img`. */
  function showIn(img: HTMLImageElement, n: number, zoom: Zoom): void {
    const thumb = thumbs.get(n);
    img.width = Number(thumb?.dataset.width) || img.width;
    img.height = Number(thumb?.dataset.height) || img.height;
    for (const source of sourcesOf(img)) {
      source.sizes = readerSizes(zoom);
      source.srcset = thumb?.dataset[source.type.slice('image/'.length)] ?? '';
    }
    img.src = thumb?.dataset.src ?? '';
    img.alt = say('reader.pageAlt', { page: n, title });
  }

  /** A step or zoom link: to `target` (its `data-go` or `data-zoom-to`), or disabled at either end. */
  function point(
    link: HTMLAnchorElement,
    key: 'go' | 'zoomTo',
    target: number | null,
    url: string,
  ) {
    link.dataset[key] = String(target ?? '');
    if (target === null) link.removeAttribute('href');
    else link.href = url;
    if (target === null) link.setAttribute('aria-disabled', 'true');
    else link.removeAttribute('aria-disabled');
  }

  /** The screen for `state`: images, labels, every link, the notices, the address and the title. */
  function draw(state: ReaderState, before: ReaderState): void {
    const { page, zoom, loading, failed } = state;
    Object.assign(root.dataset, { page, zoom });
    if (page !== before.page) {
      thumbs.get(before.page)?.removeAttribute('aria-current');
      thumbs.get(page)?.setAttribute('aria-current', 'page');
      showIn(image, page, zoom);
      const other = partnerOf(page, count);
      partner.hidden = other === undefined;
      if (other !== undefined) showIn(partner, other, zoom);
      const side = other !== undefined && other < page ? 'left' : 'right';
      partner.dataset.side = side;
      // In page order, as a screen reader reads them: the left page first.
      image.parentElement?.insertAdjacentElement(
        side === 'left' ? 'beforebegin' : 'afterend',
        partner.parentElement ?? partner,
      );
      goto.value = String(page);
    }
    // A larger zoom asks the browser for a wider image from the same srcset.
    for (const img of zoom === before.zoom ? [] : [image, partner])
      for (const source of sourcesOf(img)) source.sizes = readerSizes(zoom);
    viewport.setAttribute('aria-busy', String(loading));
    $('[data-loading-cue]').hidden = !loading;
    $('[data-loading-text]').textContent = positionLabel(pagesOf(page), count, say, 'loading');
    $('[data-zoom-label]').textContent = zoomLabel(zoom);
    drawLinks(state);
    notice.hidden = failed.length === 0;
    // One page of a spread on screen failed: the notice sits over it, not the one that loaded.
    const side = partner.getClientRects().length > 0 && failedSide(state, count);
    if (side) notice.dataset.side = side;
    else delete notice.dataset.side;
    $('[data-failed-text]').textContent = failedWords(state);
    // A turn is a history entry, as a link is without JavaScript: Back shows the page before.
    const url = urlFor(page, zoom);
    if (readerPlace(location.pathname, count).page === page)
      history.replaceState(history.state, '', url);
    else history.pushState(null, '', url);
    // The tab, a bookmark and the history name the page the address now names.
    document.title = document.title.replace(pageTitle(before.page), () => pageTitle(page));
  }
  $reader.listen((state, before) => draw(state, before ?? state));

  function failedWords({ failed }: ReaderState): string {
    return failed.length ? positionLabel(failed, count, say, 'failed') : '';
  }

  function drawLinks({ page, shown, zoom }: ReaderState): void {
    const focused = document.activeElement;
    for (const group of root.querySelectorAll<HTMLElement>('[data-mode]')) {
      const spread = group.dataset.mode === 'spread';
      const near = neighboursIn(spread, page, count);
      for (const link of group.querySelectorAll<HTMLAnchorElement>('[data-nav]')) {
        const target = link.dataset.nav === 'prev' ? near.prev : near.next;
        point(link, 'go', target, urlFor(target ?? page, zoom));
      }
      const pages = spread ? spreadOf(shown, count) : [shown];
      $('[data-position]', group).textContent = positionLabel(pages, count, say);
    }
    root.querySelectorAll<HTMLAnchorElement>('[data-zoom-to]').forEach((link, i) => {
      const to = zoomNext(zoom, i === 0 ? -1 : 1);
      point(link, 'zoomTo', to, urlFor(page, to ?? zoom));
    });
    for (const [n, link] of thumbs) link.href = urlFor(n, zoom);
    $<HTMLAnchorElement>('[data-reload]').href = urlFor(page, zoom, '');
    // A control just disabled under the keyboard's focus (Next on the last page, + at the largest
    // zoom) is no longer focusable: the focus goes to its counterpart, or the page, not to <body>.
    if (focused instanceof HTMLAnchorElement && root.contains(focused) && !focused.href) {
      const other = focused.parentElement?.querySelector<HTMLElement>('a[href]');
      (other ?? viewport).focus({ preventScroll: true });
    }
  }

  /** Scrolls the page (or spread) to just under the toolbar, unless it is wholly in view already. */
  function reveal(): void {
    if (document.fullscreenElement) return;
    const box = viewport.getBoundingClientRect();
    const under = toolbar.getBoundingClientRect().bottom ?? 0;
    if (box.top >= under - 1 && box.bottom <= innerHeight + 1) return;
    viewport.scrollIntoView({ block: 'start', inline: 'nearest', behavior: 'instant' });
  }

  /** Scrolls the thumbnail strip sideways to page `n`'s thumbnail, never the page itself. */
  function follow(n: number): void {
    const strip = $('.thumbs ol');
    const thumb = thumbs.get(n);
    if (!thumb) return;
    const item = (thumb.parentElement ?? thumb).getBoundingClientRect();
    const view = strip.getBoundingClientRect();
    strip.scrollLeft += scrollToShow(
      { start: item.left, end: item.right },
      { start: view.left, end: view.right },
    );
  }

  /** After a turn: the labels claim the new pages once every page image drawn has loaded. */
  function settle(): void {
    const turn = ++turns;
    const drawn = [image, partner].filter((img) => img.getClientRects().length > 0);
    for (const img of drawn) {
      // The partner is lazy (phones never draw it); drawn, it is on screen and must load now.
      img.loading = 'eager';
      // Until its picture arrives the browser draws the old one (the other side, after a turn to
      // an odd page of a spread): an empty page instead, under the loading notice.
      img.toggleAttribute('data-pending', !img.complete);
    }
    // decode() settles on load or failure, and when a zoom asked for a wider picture: wait on then.
    const wait = (): void => {
      if (turn !== turns) return;
      const pending = drawn.filter((img) => !img.complete);
      $reader.set(settled($reader.get(), pending.length > 0));
      if (pending.length) void Promise.allSettled(pending.map((img) => img.decode())).then(wait);
    };
    wait();
  }

  /** Warms the next page (or spread) at this screen's width: detached copies of the <picture>. */
  function warmNext(): void {
    const { page, zoom } = $reader.get();
    const next = neighboursIn(spreads(), page, count).next;
    const pages = next === null ? [] : pagesOf(next);
    held.warm = pages.flatMap((n) => {
      const copy = image.parentElement?.cloneNode(true);
      const img = copy instanceof Element ? copy.querySelector('img') : null;
      if (!thumbs.get(n)?.dataset.src || !img) return [];
      img.fetchPriority = 'auto';
      showIn(img, n, zoom);
      return [img];
    });
  }

  /** Shows `target`; false when a page of its spread is outside the rendered thumbnails. */
  function go(target: number): boolean {
    if (spreadOf(target, count).some((n) => !thumbs.get(n)?.dataset.src)) return false;
    if (target === $reader.get().page) return true;
    $reader.set(turned($reader.get(), target));
    // Spoken at once: a screen reader has the new pages' alt texts before their pictures arrive.
    speak(positionLabel(pagesOf(target), count, say));
    settle();
    follow(target);
    viewport.scrollTop = 0;
    reveal();
    warmNext();
    return true;
  }

  /** A turn in place, or (the page's spread outside the strip) a load of the page's own address. */
  function goOrLoad(target: number): void {
    if (!go(target)) location.assign(urlFor(target, $reader.get().zoom));
  }

  function setZoom(zoom: Zoom): void {
    if (zoom === $reader.get().zoom) return;
    $reader.set({ ...$reader.get(), zoom });
    speak(`${say('reader.zoom')} ${zoomLabel(zoom)}`);
  }

  /** A page image failed: the notice names it, and a screen reader hears it (politely). */
  async function fail(img: HTMLImageElement): Promise<void> {
    const n = pageIn(img);
    if (img.hidden || n === undefined || failing(img)) return;
    // A subscriber's page the route refuses: the page's own address shows the paywall instead.
    // 401: signed out (in another tab); 403 after a turn (the opening pages were let in): let out.
    if (root.dataset.access === 'private') {
      const turn = turns;
      const head = await fetch(img.currentSrc || img.src, { method: 'HEAD' }).catch(() => null);
      if (head?.status === 401 || (head?.status === 403 && turns > 0)) return location.reload();
      if (turn !== turns || !img.complete || img.naturalWidth > 0) return; // turned or loaded meanwhile
    }
    $reader.set(withFailure($reader.get(), n, true));
    speak(failedWords($reader.get()));
  }

  // Page images that fail show the notice (also one that failed before this script ran).
  for (const img of [image, partner]) {
    img.addEventListener('error', () => {
      img.removeAttribute('data-pending');
      void fail(img);
    });
    img.addEventListener('load', () => {
      img.removeAttribute('data-pending');
      const n = pageIn(img);
      if (n !== undefined) $reader.set(withFailure($reader.get(), n, false));
    });
    if (img.complete && img.naturalWidth === 0 && img.getClientRects().length > 0) void fail(img);
  }
  // Asks again for each failed image (setting `src` makes the browser retry a failed address).
  $('[data-retry]').addEventListener('click', () => {
    for (const img of [image, partner].filter(failing)) {
      for (const source of sourcesOf(img)) source.srcset = source.getAttribute('srcset') ?? '';
      img.src = img.getAttribute('src') ?? '';
    }
  });

  root.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    const link =
      event.target instanceof Element && event.target.closest<HTMLAnchorElement>('a[href]');
    if (!link) return;
    if (link.dataset.go && go(Number(link.dataset.go))) event.preventDefault();
    else if (link.dataset.zoomTo) {
      event.preventDefault();
      setZoom(parseZoom(link.dataset.zoomTo));
    }
  });

  // "Go to page" turns in place too, or loads the page's own address: a static copy serves no
  // `?page=` (the browser checked the number against min and max before this event).
  if (goto.form) goto.form.hidden = false;
  goto.form?.addEventListener('submit', (event) => {
    event.preventDefault();
    goOrLoad(clampPage(goto.valueAsNumber, count));
  });

  // Back and Forward between turned pages: the address names the page and zoom to show.
  addEventListener('popstate', (event) => {
    const place = readerPlace(location.pathname, count);
    if (!go(place.page)) return location.reload();
    setZoom(place.zoom);
    // Back to a zoomed page shows the part that was in view when it was left.
    const pan = panOf(event.state);
    if (pan) viewport.scrollTo(pan);
  });

  /** Does what `key` does here (a swipe or a pinch does what its key does); false: not ours. */
  function press(key: string, modified = false, inField = false): boolean {
    const { page, zoom } = $reader.get();
    const spread = spreads();
    const action = keyAction({ key, page, pageCount: count, zoom, modified, inField, spread });
    if (action?.type === 'zoom') setZoom(action.zoom);
    else if (action?.type === 'pan')
      viewport.scrollBy({ left: (action.direction * viewport.clientWidth) / 3 });
    else if (action) goOrLoad(action.page);
    return action !== null;
  }
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented) return;
    const active = document.activeElement;
    const inField = active instanceof HTMLElement && isFormField(active);
    if (press(event.key, event.ctrlKey || event.metaKey || event.altKey, inField))
      event.preventDefault();
    else showControls();
  });

  // Zoom steps through the levels and the viewport scrolls to pan: a pan-zoom library
  // (@panzoom/panzoom, ~4 kB gzip) would scale a transform and leave the page turns to this code.
  // Double click or double tap: 100 % ↔ 200 %, keeping the spot under the finger in view.
  viewport.addEventListener('dblclick', (event) => {
    const box = viewport.getBoundingClientRect();
    const x = (viewport.scrollLeft + event.clientX - box.left) / viewport.scrollWidth;
    const y = (viewport.scrollTop + event.clientY - box.top) / viewport.scrollHeight;
    setZoom($reader.get().zoom === 1 ? 2 : 1);
    viewport.scrollLeft = x * viewport.scrollWidth - (event.clientX - box.left);
    viewport.scrollTop = y * viewport.scrollHeight - (event.clientY - box.top);
  });

  // A sideways swipe turns the page, two fingers pinch.
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
      if (direction) press(direction === 1 ? '+' : '-');
      pinchStart = -1; // the other finger's release is not a swipe
    } else if (event.type === 'pointerup' && pinchStart !== -1 && $reader.get().zoom === 1) {
      // A sideways swipe turns (unzoomed: zoomed in, the finger pans).
      const direction = swipeDirection(at.x - at.x0, at.y - at.y0);
      if (direction) press(direction === 1 ? 'ArrowRight' : 'ArrowLeft');
    }
    touches.delete(event.pointerId);
    if (touches.size === 0) pinchStart = 0;
  };
  viewport.addEventListener('pointerup', release);
  viewport.addEventListener('pointercancel', release);

  // The zoomed page's scroll position goes with the history entry: a reload shows the same part
  // (a browser without `scrollend`, as Safari, keeps it once scrolling pauses).
  const keepPan = () => {
    const entry: unknown = history.state;
    const pan = { left: viewport.scrollLeft, top: viewport.scrollTop };
    history.replaceState({ ...(isRecord(entry) ? entry : {}), pan }, '');
  };
  if ('onscrollend' in HTMLElement.prototype) viewport.addEventListener('scrollend', keepPan);
  else {
    let pause: ReturnType<typeof setTimeout> | undefined;
    viewport.addEventListener('scroll', () => {
      clearTimeout(pause);
      pause = setTimeout(keepPan, 200);
    });
  }
  const pan = panOf(history.state);
  if (pan) viewport.scrollTo(pan);

  // Full screen: the pointer moving, a tap or a key other than the reader's shows the toolbar and
  // thumbnails for a while (CSS keeps them while a keyboard user's focus is inside).
  function hideControls(): void {
    clearTimeout(idle);
    delete root.dataset.controls;
  }
  function showControls(): void {
    if (document.fullscreenElement !== root) return;
    root.dataset.controls = '';
    clearTimeout(idle);
    const later = () => {
      // Not while the pointer rests on them.
      if (root.querySelector('.toolbar:hover, .thumbs:hover'))
        idle = setTimeout(later, CONTROLS_IDLE_MS);
      else hideControls();
    };
    idle = setTimeout(later, CONTROLS_IDLE_MS);
  }
  const fullscreen = $<HTMLButtonElement>('[data-fullscreen]');
  if (document.fullscreenEnabled) {
    fullscreen.hidden = false;
    fullscreen.addEventListener('click', () => {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void root.requestFullscreen();
    });
    document.addEventListener('fullscreenchange', () => {
      const on = document.fullscreenElement === root;
      const word = $('[data-fullscreen-word]', fullscreen);
      word.textContent = say(on ? 'reader.exitFullscreen' : 'reader.fullscreen');
      hideControls();
      // The page, not the button, holds the focus: the toolbar stays out of the way until asked for.
      if (on) viewport.focus({ preventScroll: true });
    });
  }
  root.addEventListener('pointermove', (event) => {
    if (event.pointerType !== 'touch') showControls();
  });
  root.addEventListener('click', showControls);

  // The opening page: the strip at its thumbnail, the spread under the measured toolbar.
  follow(page);
  const measureToolbar = () => {
    toolbarHeight = toolbar.offsetHeight;
    root.style.setProperty('--toolbar', `${toolbarHeight}px`);
  };
  measureToolbar();
  new ResizeObserver(() => {
    // Keep a spread that sat just under the toolbar there when the toolbar's height changes.
    const docked = Math.abs(viewport.getBoundingClientRect().top - toolbarHeight) < 2;
    measureToolbar();
    if (docked) reveal();
  }).observe(toolbar);
  // A fresh visit (a deep link, a link from the edition list) opens on the page, not the header;
  // a reload or Back keeps the scroll position the browser restores.
  const [navigation] = performance.getEntriesByType('navigation');
  const type = navigation instanceof PerformanceNavigationTiming ? navigation.type : 'navigate';
  if (type !== 'reload' && type !== 'back_forward' && scrollY === 0 && !location.hash) {
    reveal();
    // Once more when everything has loaded (late styles or fonts), unless the reader scrolled.
    const settledAt = scrollY;
    addEventListener('load', () => scrollY === settledAt && reveal(), { once: true });
  }
  // Once the pages on screen have loaded, the next ones load too.
  if (document.readyState === 'complete') warmNext();
  else addEventListener('load', warmNext, { once: true });
  $('[data-hint]').hidden = false;
}

for (const root of document.querySelectorAll<HTMLElement>('[data-reader]')) enhance(root);
