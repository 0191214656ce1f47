import { afterEach, describe, expect, it, vi } from 'vitest';
import PostGrid from '../../../src/components/posts/PostGrid.astro';
import {
  fragmentKey,
  keptPart,
  partKey,
  renderPart,
  resetRenderedParts,
} from '../../../src/lib/render/fragments.ts';
import { registry } from '../../../src/lib/observability/prometheus.ts';
import { forgetSettings } from '../../../src/lib/settings/settings.ts';
import type { TenantMatch } from '../../../src/lib/tenants/resolution.ts';
import { postSummary } from '../../fixtures/post.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { render } from '../components/render.ts';

const tenant = buildTenant();

/** `masthead_rendered_parts_total` for this tenant and result. */
async function partsCounted(result: 'kept' | 'rendered'): Promise<number> {
  const metric = await registry.getSingleMetric('masthead_rendered_parts_total')?.get();
  return (
    metric?.values.find(
      (value) => value.labels.tenant === tenant.id && value.labels.result === result,
    )?.value ?? 0
  );
}

function localsOf(match: Partial<TenantMatch> = {}): App.Locals {
  const site: TenantMatch = {
    tenant,
    via: 'host',
    basePath: '',
    pathname: '/',
    origin: 'https://gazette.example.com',
    ...match,
  };
  const prefix = site.basePath;
  const locals = {
    tenantMatchOrNull: site,
    tenant: site.tenant,
    href: (path: string) => `${prefix}${path}`,
  };
  return locals as unknown as App.Locals;
}

afterEach(() => {
  delete process.env.RENDER_CACHE_MAX_BYTES;
  forgetSettings();
  resetRenderedParts();
});

describe('page parts kept rendered', () => {
  it('name objects by identity: the same object is the same key, an equal copy is not', () => {
    const post = postSummary();
    expect(fragmentKey(['card', post, 3])).toBe(fragmentKey(['card', post, 3]));
    expect(fragmentKey(['card', { ...post }, 3])).not.toBe(fragmentKey(['card', post, 3]));
    expect(fragmentKey(['card', post, 3])).not.toBe(fragmentKey(['card', post, '3']));
  });

  it('keep a part apart per tenant settings and per way of writing links', () => {
    const by = ['grid', postSummary()];
    const byHost = partKey(localsOf(), by);
    expect(partKey(localsOf(), by)).toBe(byHost);
    expect(partKey(localsOf({ via: 'path', basePath: '/gazette' }), by)).not.toBe(byHost);
    expect(partKey(localsOf({ via: 'query' }), by)).not.toBe(byHost);
    expect(partKey(localsOf({ tenant: buildTenant() }), by)).not.toBe(byHost);
    expect(partKey(localsOf(), null)).toBeNull();
    expect(partKey({ tenantMatchOrNull: null } as App.Locals, by)).toBeNull();
  });

  it('render a part once for the same data, again for new data or a null key', async () => {
    const locals = localsOf();
    const post = postSummary();
    const draw = vi.fn(() => Promise.resolve(`<p>${post.title}</p>`));
    expect(await renderPart(locals, ['p', post], draw)).toBe(`<p>${post.title}</p>`);
    expect(await renderPart(locals, ['p', post], draw)).toBe(`<p>${post.title}</p>`);
    expect(draw).toHaveBeenCalledTimes(1);
    await renderPart(locals, ['p', { ...post }], draw);
    expect(draw).toHaveBeenCalledTimes(2);
    await renderPart(locals, null, draw);
    await renderPart(locals, null, draw);
    expect(draw).toHaveBeenCalledTimes(4);
  });

  it('tell whether a part is kept without rendering it, counting only a kept one', async () => {
    const locals = localsOf();
    const post = postSummary();
    const rendered = await partsCounted('rendered');
    expect(keptPart(locals, ['p', post])).toBeUndefined();
    expect(keptPart(locals, null)).toBeUndefined();
    await renderPart(locals, ['p', post], () => Promise.resolve('<p>kept</p>'));
    expect(await partsCounted('rendered')).toBe(rendered + 1);
    const kept = await partsCounted('kept');
    expect(keptPart(locals, ['p', post])).toBe('<p>kept</p>');
    expect(keptPart(locals, ['p', { ...post }])).toBeUndefined();
    expect(await partsCounted('kept')).toBe(kept + 1);
  });

  it('keep nothing with RENDER_CACHE_MAX_BYTES=0', async () => {
    process.env.RENDER_CACHE_MAX_BYTES = '0';
    forgetSettings();
    resetRenderedParts();
    const post = postSummary();
    const draw = vi.fn(() => Promise.resolve('<p>part</p>'));
    await renderPart(localsOf(), ['p', post], draw);
    await renderPart(localsOf(), ['p', post], draw);
    expect(draw).toHaveBeenCalledTimes(2);
  });

  it('show a grid of cards the same from the kept HTML, and a changed story as changed', async () => {
    const locals = localsOf({ via: 'path', basePath: '/gazette' });
    const posts = [postSummary({ id: 1, slug: 'one', title: 'Ferry returns' })];
    const first = await render(PostGrid, { props: { posts }, locals });
    const kept = await partsCounted('kept');
    const again = await render(PostGrid, { props: { posts }, locals });
    expect(await partsCounted('kept')).toBe(kept + 1);
    expect(again.body.innerHTML).toBe(first.body.innerHTML);
    expect(again.getByRole('link', { name: 'Ferry returns' }).getAttribute('href')).toBe(
      '/gazette/posts/one',
    );
    // A new read of the story is a new object: the grid renders again and shows the new title.
    const edited = [{ ...posts[0]!, title: 'Ferry returns at last' }];
    const changed = await render(PostGrid, { props: { posts: edited }, locals });
    expect(changed.getByRole('link', { name: 'Ferry returns at last' })).toBeTruthy();
    // Links written for another way of reaching the tenant are not reused either.
    const byHost = await render(PostGrid, { props: { posts }, locals: localsOf() });
    expect(byHost.getByRole('link', { name: 'Ferry returns' }).getAttribute('href')).toBe(
      '/posts/one',
    );
  });
});
