/**
 * Enhances the server-rendered reader: page links, zoom links and the keyboard change the page in
 * place (image, thumbnails, live region) and keep the URL in step with `history.replaceState`.
 * Without this script every control is a plain link or form and does the same with a page load.
 * Page images come only from the thumbnails' `data-src`, i.e. what the server rendered for this visitor.
 */
import {
  clampPage,
  isFormField,
  keyAction,
  neighbours,
  pageAlt,
  parseZoom,
  readerPath,
  readerSearch,
  zoomLabel,
  zoomStep,
  type Zoom,
} from '../../lib/epaper/reader.ts';

function enhance(root: HTMLElement): void {
  const count = Number(root.dataset.count) || 1;
  const title = root.dataset.title ?? '';
  let page = clampPage(Number(root.dataset.page), count);
  let zoom: Zoom = parseZoom(root.dataset.zoom);
  const $ = <E extends Element>(selector: string) => root.querySelector<E>(selector);
  const image = $<HTMLImageElement>('[data-page-image]');
  const live = $<HTMLElement>('[data-live]');
  const currentLabel = $<HTMLElement>('[data-current]');
  const zoomText = $<HTMLElement>('[data-zoom-label]');
  const gotoInput = $<HTMLInputElement>('[data-goto]');
  const thumbs = new Map<number, HTMLAnchorElement>();
  for (const link of root.querySelectorAll<HTMLAnchorElement>('.thumbs a[data-go]')) {
    thumbs.set(Number(link.dataset.go), link);
  }
  if (!image) return;

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
    const near = neighbours(page, count);
    setLink($('[data-nav="prev"]'), near.prev, 'go');
    setLink($('[data-nav="next"]'), near.next, 'go');
    const [out, into] = root.querySelectorAll<HTMLAnchorElement>('[data-zoom-to]');
    const outZoom = zoomStep(zoom, -1);
    const inZoom = zoomStep(zoom, 1);
    setLink(out ?? null, outZoom === zoom ? null : outZoom, 'zoom-to');
    setLink(into ?? null, inZoom === zoom ? null : inZoom, 'zoom-to');
    for (const [number, link] of thumbs) link.href = urlFor(number, zoom);
  };

  /** Shows `target`; false when its thumbnail is outside the rendered window (the link loads it). */
  const go = (target: number): boolean => {
    const thumb = thumbs.get(target);
    if (!thumb?.dataset.src) return false;
    if (target === page) return true;
    thumbs.get(page)?.removeAttribute('aria-current');
    thumb.setAttribute('aria-current', 'page');
    page = target;
    image.width = Number(thumb.dataset.width) || image.width;
    image.height = Number(thumb.dataset.height) || image.height;
    image.src = thumb.dataset.src;
    image.alt = fill(root.dataset.textAlt, { page, title }) ?? pageAlt(page, title);
    root.dataset.page = String(page);
    if (currentLabel) currentLabel.textContent = String(page);
    if (gotoInput) gotoInput.value = String(page);
    if (live)
      live.textContent =
        fill(root.dataset.textPosition, { page, count }) ?? `Page ${page} of ${count}`;
    thumb.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    refreshLinks();
    history.replaceState(history.state, '', urlFor(page, zoom));
    // Warm the next page, so the common "next" is instant.
    const ahead = thumbs.get(page + 1)?.dataset.src;
    if (ahead) new Image().src = ahead;
    return true;
  };

  const setZoom = (next: Zoom) => {
    zoom = next;
    root.dataset.zoom = String(zoom);
    if (zoomText) zoomText.textContent = zoomLabel(zoom);
    if (live) live.textContent = `${root.dataset.textZoom ?? 'Zoom'} ${zoomLabel(zoom)}`;
    refreshLinks();
    history.replaceState(history.state, '', urlFor(page, zoom));
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
    });
    if (!action) return;
    event.preventDefault();
    if (action.type === 'zoom') setZoom(action.zoom);
    else if (!go(action.page)) location.assign(urlFor(action.page, zoom));
  });

  $<HTMLElement>('[data-hint]')?.removeAttribute('hidden');
}

for (const root of document.querySelectorAll<HTMLElement>('[data-reader]')) enhance(root);

/** A server-translated template (`data-text-*`) with `{name}` filled in; undefined without one. */
function fill(template: string | undefined, values: Record<string, string | number>) {
  return template?.replace(/\{(\w+)\}/g, (match, name: string) => String(values[name] ?? match));
}
