import { LRUCache } from 'lru-cache';
import { observeRenderedPart } from '../observability/prometheus.ts';
import { settings } from '../settings/settings.ts';
import { objectId } from './identity.ts';

/**
 * HTML of page parts already rendered, reused by the next render that shows the same data the same
 * way. A page renders again whenever its route-cache entry ends (every minute for the front page,
 * after every change the watcher sees, once per encoding a client asks for) while most of what it
 * shows is unchanged; components, not data, are where a render's time goes.
 *
 * A key names its data by identity: the upstream cache hands every render the same parsed objects
 * until it reads them again, so an object seen before stands for the same content. A new read is a
 * new object, hence a new key, and the old HTML ages out of the LRU unused. Strings and numbers in
 * a key name how the data is shown (variant, heading level, page number).
 */
export type KeyPart = object | string | number | boolean | null | undefined;

/** One string for the parts: objects by identity (`#n`), the rest as JSON. */
export function fragmentKey(parts: readonly KeyPart[]): string {
  return parts
    .map((part) =>
      part !== null && typeof part === 'object' ? `#${objectId(part)}` : JSON.stringify(part),
    )
    .join('|');
}

/**
 * The key of a part of this request's page, or null (render, keep nothing) when `by` is null or
 * no tenant was resolved. Besides `by`, every part depends on the tenant's settings (a new object
 * when tenants.json is read again) and on how its links are written (host, path prefix, `?tenant=`).
 */
export function partKey(locals: App.Locals, by: readonly KeyPart[] | null): string | null {
  const match = locals.tenantMatchOrNull;
  if (!by || !match) return null;
  return fragmentKey([match.tenant, match.via, match.basePath, ...by]);
}

let kept: LRUCache<string, string> | null | undefined;

/** The LRU of rendered parts, bounded by `RENDER_CACHE_MAX_BYTES` (0: none kept). */
function store(): LRUCache<string, string> | null {
  if (kept === undefined) {
    const maxSize = settings().RENDER_CACHE_MAX_BYTES;
    kept =
      maxSize > 0
        ? new LRUCache<string, string>({
            maxSize,
            // UTF-16 strings: two bytes a character.
            sizeCalculation: (html, key) => Math.max(1, (html.length + key.length) * 2),
          })
        : null;
  }
  return kept;
}

/** The HTML kept for this part, if any (counted as kept), without rendering it. */
export function keptPart(locals: App.Locals, by: readonly KeyPart[] | null): string | undefined {
  return keptUnder(locals, partKey(locals, by));
}

function keptUnder(locals: App.Locals, key: string | null): string | undefined {
  const found = key === null ? undefined : store()?.get(key);
  if (found !== undefined) observeRenderedPart(tenantOf(locals), 'kept');
  return found;
}

const tenantOf = (locals: App.Locals) => locals.tenantMatchOrNull?.tenant.id ?? 'none';

/**
 * The HTML `render` gave for this part before, or `render`'s now (kept for the next time). A null
 * `by` renders and keeps nothing: content that shows more than a key can name (a form with what
 * the visitor typed).
 */
export async function renderPart(
  locals: App.Locals,
  by: readonly KeyPart[] | null,
  render: () => Promise<string>,
): Promise<string> {
  const key = partKey(locals, by);
  const found = keptUnder(locals, key);
  if (found !== undefined) return found;
  const html = await render();
  const parts = key === null ? null : store();
  if (key === null || !parts) return html;
  parts.set(key, html);
  observeRenderedPart(tenantOf(locals), 'rendered');
  return html;
}

/** For tests: forget every part and read `RENDER_CACHE_MAX_BYTES` again. */
export function resetRenderedParts(): void {
  kept = undefined;
}
