/**
 * Enhances the server-rendered reader: page links, zoom links, the keyboard, swipes, pinches and
 * double taps change the page in place (images, thumbnails, live region) and keep the URL in step
 * with `history.replaceState`; a full-screen button appears where the browser allows it. A turned
 * page scrolls the spread to just under the sticky toolbar (whose height it measures for the CSS),
 * and the position label keeps naming the pages on screen until the new ones have loaded.
 * Without this script every control is a plain link or form and does the same with a page load.
 * Spreads and fit modes are CSS media queries; the script only asks `layoutFor` whether spreads
 * are on, to step by spread. Page images come only from the thumbnails' `data-src`, `data-avif` and `data-webp`
 * (signed image-route addresses), i.e. what the server rendered for this visitor.
 */
import {
  clampPage,
  fillText,
  isFormField,
  keyAction,
  layoutFor,
  neighboursIn,
  pageAlt,
  parseZoom,
  pinchDirection,
  positionLabel,
  readerPath,
  readerSearch,
  readerSizes,
  scrollToShow,
  spreadOf,
  swipeDirection,
  zoomLabel,
  zoomStep,
  type Zoom,
} from '../../lib/epaper/reader.ts';

/** Full screen: how long the toolbar and thumbnails stay after the pointer or a key last asked. */
const CONTROLS_IDLE_MS = 2500;

/** The page images' `<source>`s, best first, and the thumbnail data attribute each reads. */
const FORMATS = [
  { type: 'image/avif', key: 'avif' },
  { type: 'image/webp', key: 'webp' },
] as const;

function enhance(root: HTMLElement): void {
  const count = Number(root.dataset.count) || 1;
  const title = root.dataset.title ?? '';
  let page = clampPage(Number(root.dataset.page), count);
  /** The page whose images are on screen: `page` once they have loaded. */
  let shown = page;
  /** Counts turns, so a slow load that a later turn overtook changes nothing. */
  let turns = 0;
  let zoom: Zoom = parseZoom(root.dataset.zoom);
  const $ = <E extends Element>(selector: string) => root.querySelector<E>(selector);
  const image = $<HTMLImageElement>('[data-page-image]');
  const partner = $<HTMLImageElement>('[data-partner-image]');
  const viewport = $<HTMLElement>('[data-viewport]');
  const live = $<HTMLElement>('[data-live]');
  const zoomText = $<HTMLElement>('[data-zoom-label]');
  const gotoInput = $<HTMLInputElement>('[data-goto]');
  const toolbar = $<HTMLElement>('.toolbar');
  const strip = $<HTMLElement>('.thumbs ol');
  const cue = $<HTMLElement>('[data-loading-cue]');
  const thumbs = new Map<number, HTMLAnchorElement>();
  for (const link of root.querySelectorAll<HTMLAnchorElement>('.thumbs a[data-go]')) {
    thumbs.set(Number(link.dataset.go), link);
  }
  if (!image || !viewport) return;
  // The tenant's language, rendered by the server (English only if an attribute is missing).
  const text = root.dataset;
  const positionTexts = {
    page: text.textPosition ?? 'Page {page} of {count}',
    spread: text.textSpread ?? 'Pages {first}–{second} of {count}',
  };
  const loadingTexts = {
    page: text.textLoading ?? 'Loading page {page}…',
    spread: text.textLoadingSpread ?? 'Loading pages {first}–{second}…',
  };
  const altFor = (number: number) =>
    text.textAlt ? fillText(text.textAlt, { page: number, title }) : pageAlt(number, title);

  const spreads = () => layoutFor({ width: innerWidth, height: innerHeight }).spread;
  const urlFor = (target: number, atZoom: number) =>
    `${readerPath(location.pathname, target, atZoom)}${readerSearch(location.search, 1, 1)}${location.hash}`;

  const setLink = (link: HTMLAnchorElement | null, target: number | null, attr: string) => {
    if (!link) return;
    if (target === null) {
      link.removeAttribute('href');
      link.setAttribute('aria-disabled', 'true');
    } else {
      link.href = attr === 'go' ? urlFor(target, zoom) : urlFor(page, target);
      link.removeAttribute('aria-disabled');
    }
    link.setAttribute(`data-${attr}`, target === null ? '' : String(target));
  };

  const refreshLinks = () => {
    for (const group of root.querySelectorAll<HTMLElement>('[data-mode]')) {
      const spread = group.dataset.mode === 'spread';
      const near = neighboursIn(spread, page, count);
      setLink(group.querySelector('[data-nav="prev"]'), near.prev, 'go');
      setLink(group.querySelector('[data-nav="next"]'), near.next, 'go');
      const position = group.querySelector('[data-position]');
      if (position)
        position.textContent = positionLabel(
          spread ? spreadOf(shown, count) : [shown],
          count,
          positionTexts,
        );
    }
    const [out, into] = root.querySelectorAll<HTMLAnchorElement>('[data-zoom-to]');
    const outZoom = zoomStep(zoom, -1);
    const inZoom = zoomStep(zoom, 1);
    setLink(out ?? null, outZoom === zoom ? null : outZoom, 'zoom-to');
    setLink(into ?? null, inZoom === zoom ? null : inZoom, 'zoom-to');
    for (const [number, link] of thumbs) link.href = urlFor(number, zoom);
  };

  /** The AVIF and WebP `<source>`s of a page image's `<picture>` (made for an empty partner). */
  const sourcesOf = (img: HTMLImageElement) =>
    FORMATS.map(({ type }) => {
      const found = img.parentElement?.querySelector<HTMLSourceElement>(`source[type="${type}"]`);
      if (found) return found;
      const source = document.createElement('source');
      source.type = type;
      img.before(source);
      return source;
    });

  const show = (img: HTMLImageElement, number: number) => {
    const thumb = thumbs.get(number);
    img.width = Number(thumb?.dataset.width) || img.width;
    img.height = Number(thumb?.dataset.height) || img.height;
    const sources = sourcesOf(img);
    FORMATS.forEach(({ key }, i) => {
      const source = sources[i];
      if (!source) return;
      source.sizes = readerSizes(zoom);
      source.srcset = thumb?.dataset[key] ?? '';
    });
    img.src = thumb?.dataset.src ?? '';
    img.alt = altFor(number);
  };

  /** The sticky toolbar's height, for the CSS (`--toolbar`: fit height and scroll margin). */
  let toolbarHeight = 0;
  const measureToolbar = () => {
    toolbarHeight = toolbar?.offsetHeight ?? 0;
    if (toolbar) root.style.setProperty('--toolbar', `${toolbarHeight}px`);
  };

  /** Scrolls the page (or spread) to just under the toolbar, unless it is wholly in view already. */
  const reveal = () => {
    if (document.fullscreenElement) return;
    const box = viewport.getBoundingClientRect();
    const under = toolbar?.getBoundingClientRect().bottom ?? 0;
    if (box.top >= under - 1 && box.bottom <= innerHeight + 1) return;
    viewport.scrollIntoView({ block: 'start', inline: 'nearest', behavior: 'instant' });
  };

  /** Scrolls the thumbnail strip sideways to `thumb`, never the page itself. */
  const follow = (thumb: HTMLElement) => {
    if (!strip) return;
    const item = (thumb.parentElement ?? thumb).getBoundingClientRect();
    const view = strip.getBoundingClientRect();
    strip.scrollLeft += scrollToShow(
      { start: item.left, end: item.right },
      { start: view.left, end: view.right },
    );
  };

  /** The loading notice and aria-busy while `loading`; the position label names `shown`. */
  const announce = (loading: boolean) => {
    if (loading) viewport.setAttribute('aria-busy', 'true');
    else viewport.removeAttribute('aria-busy');
    if (cue) {
      cue.hidden = !loading;
      const pages = spreads() ? spreadOf(page, count) : [page];
      const words = cue.querySelector('[data-loading-text]');
      if (words) words.textContent = positionLabel(pages, count, loadingTexts);
    }
    refreshLinks();
  };

  /** After a turn: the labels claim the new pages once every page image drawn has loaded. */
  const settle = () => {
    const turn = ++turns;
    const drawn = [image, partner].filter(
      (img): img is HTMLImageElement => img !== null && img.getClientRects().length > 0,
    );
    // The partner is lazy (phones never draw it); drawn, it is on screen and must load now.
    for (const img of drawn) img.loading = 'eager';
    const pending = drawn.filter((img) => !img.complete);
    const done = () => {
      if (turn !== turns) return;
      shown = page;
      announce(false);
    };
    if (pending.length === 0) {
      done();
      return;
    }
    announce(true);
    // decode() settles when the image has loaded (or failed: its alt text is then what shows).
    void Promise.allSettled(pending.map((img) => img.decode())).then(done);
  };

  /** Shows `target`; false when a page of its spread is outside the rendered thumbnails (the link loads it). */
  const go = (target: number): boolean => {
    const thumb = thumbs.get(target);
    const other = spreadOf(target, count).find((n) => n !== target);
    if (!thumb?.dataset.src || (other !== undefined && !thumbs.get(other)?.dataset.src))
      return false;
    if (target === page) return true;
    thumbs.get(page)?.removeAttribute('aria-current');
    thumb.setAttribute('aria-current', 'page');
    page = target;
    show(image, page);
    if (partner) {
      partner.hidden = other === undefined;
      if (other !== undefined) show(partner, other);
      partner.dataset.side = other !== undefined && other < page ? 'left' : 'right';
    }
    root.dataset.page = String(page);
    if (gotoInput) gotoInput.value = String(page);
    // Spoken at once: a screen reader has the new pages' alt texts before their pictures arrive.
    if (live) {
      live.textContent = positionLabel(
        spreads() ? spreadOf(page, count) : [page],
        count,
        positionTexts,
      );
    }
    settle();
    follow(thumb);
    viewport.scrollTop = 0;
    reveal();
    history.replaceState(history.state, '', urlFor(page, zoom));
    // Warm the next page at the width this screen picks, so the common "next" is instant.
    const ahead = thumbs.get(neighboursIn(spreads(), page, count).next ?? 0)?.dataset;
    if (ahead?.src) {
      // A detached <picture>: the browser picks the format and width it would show, and loads it.
      const warm = document.createElement('picture');
      for (const { type, key } of FORMATS) {
        const source = document.createElement('source');
        source.type = type;
        source.sizes = readerSizes(zoom);
        source.srcset = ahead[key] ?? '';
        warm.append(source);
      }
      const img = document.createElement('img');
      warm.append(img);
      // Set last, inside the <picture>: otherwise the JPEG would start loading first.
      img.src = ahead.src;
    }
    return true;
  };

  const turn = (direction: 1 | -1) => {
    const near = neighboursIn(spreads(), page, count);
    const target = direction === 1 ? near.next : near.prev;
    if (target !== null && !go(target)) location.assign(urlFor(target, zoom));
  };

  const setZoom = (next: Zoom) => {
    if (next === zoom) return;
    zoom = next;
    root.dataset.zoom = String(zoom);
    // A larger zoom asks the browser for a wider image from the same srcset.
    for (const img of [image, partner]) {
      if (img) for (const source of sourcesOf(img)) source.sizes = readerSizes(zoom);
    }
    if (zoomText) zoomText.textContent = zoomLabel(zoom);
    if (live) live.textContent = `${text.textZoom ?? 'Zoom'} ${zoomLabel(zoom)}`;
    refreshLinks();
    history.replaceState(history.state, '', urlFor(page, zoom));
  };

  let idle: ReturnType<typeof setTimeout> | undefined;
  const hideControls = () => {
    clearTimeout(idle);
    delete root.dataset.controls;
  };
  const showControls = () => {
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
  };

  root.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[href]');
    if (!link) return;
    if (link.dataset.go && go(Number(link.dataset.go))) event.preventDefault();
    else if (link.dataset.zoomTo) {
      event.preventDefault();
      setZoom(parseZoom(link.dataset.zoomTo));
    }
  });

  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented) return;
    const active = document.activeElement;
    const action = keyAction({
      key: event.key,
      page,
      pageCount: count,
      zoom,
      modified: event.ctrlKey || event.metaKey || event.altKey,
      inField: active instanceof HTMLElement && isFormField(active),
      spread: spreads(),
    });
    if (!action) {
      showControls();
      return;
    }
    event.preventDefault();
    if (action.type === 'zoom') setZoom(action.zoom);
    else if (!go(action.page)) location.assign(urlFor(action.page, zoom));
  });

  // Double click or double tap: 100 % ↔ 200 %, keeping the spot under the finger in view.
  viewport.addEventListener('dblclick', (event) => {
    const box = viewport.getBoundingClientRect();
    const x = (viewport.scrollLeft + event.clientX - box.left) / viewport.scrollWidth;
    const y = (viewport.scrollTop + event.clientY - box.top) / viewport.scrollHeight;
    setZoom(zoom === 1 ? 2 : 1);
    viewport.scrollLeft = x * viewport.scrollWidth - (event.clientX - box.left);
    viewport.scrollTop = y * viewport.scrollHeight - (event.clientY - box.top);
  });

  // Touch: one finger swiping sideways turns the page (at 100 %), two fingers pinch the zoom.
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
      if (direction) setZoom(zoomStep(zoom, direction));
      pinchStart = -1; // the other finger's release is not a swipe
    } else if (event.type === 'pointerup' && pinchStart !== -1 && zoom === 1) {
      const direction = swipeDirection(at.x - at.x0, at.y - at.y0);
      if (direction) turn(direction);
    }
    touches.delete(event.pointerId);
    if (touches.size === 0) pinchStart = 0;
  };
  viewport.addEventListener('pointerup', release);
  viewport.addEventListener('pointercancel', release);

  const fullscreen = $<HTMLButtonElement>('[data-fullscreen]');
  if (fullscreen && document.fullscreenEnabled) {
    fullscreen.hidden = false;
    fullscreen.addEventListener('click', () => {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void root.requestFullscreen();
    });
    document.addEventListener('fullscreenchange', () => {
      const on = document.fullscreenElement === root;
      const label = on ? text.textExitFullscreen : text.textFullscreen;
      const word = fullscreen.querySelector('[data-fullscreen-word]');
      if (label && word) word.textContent = label;
      hideControls();
      // The page, not the button, holds the focus: the toolbar stays out of the way until asked for.
      if (on) viewport.focus({ preventScroll: true });
    });
  }

  // Full screen: the pointer moving, a tap or a key other than the reader's shows the toolbar and
  // thumbnails for a while (CSS keeps them while a keyboard user's focus is inside).
  root.addEventListener('pointermove', (event) => {
    if (event.pointerType !== 'touch') showControls();
  });
  root.addEventListener('click', showControls);

  const current = thumbs.get(page);
  if (current) follow(current);
  measureToolbar();
  if (toolbar) {
    new ResizeObserver(() => {
      // Keep a spread that sat just under the toolbar there when the toolbar's height changes.
      const docked = Math.abs(viewport.getBoundingClientRect().top - toolbarHeight) < 2;
      measureToolbar();
      if (docked) reveal();
    }).observe(toolbar);
  }
  // A fresh visit (a deep link, a link from the edition list) opens on the page, not the header;
  // a reload or Back keeps the scroll position the browser restores.
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  const fresh = navigation?.type !== 'reload' && navigation?.type !== 'back_forward';
  if (fresh && scrollY === 0 && !location.hash) {
    reveal();
    // Once more when everything has loaded (late styles or fonts), unless the reader scrolled.
    const settled = scrollY;
    addEventListener('load', () => scrollY === settled && reveal(), { once: true });
  }

  $<HTMLElement>('[data-hint]')?.removeAttribute('hidden');
}

for (const root of document.querySelectorAll<HTMLElement>('[data-reader]')) enhance(root);
