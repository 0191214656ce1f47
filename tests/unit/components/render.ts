import { getQueriesForElement } from '@testing-library/dom';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import type { ContainerRenderOptions } from 'astro/container';
import { Window } from 'happy-dom';
import { buildTenant } from '../../fixtures/tenant.ts';
import { i18nFor } from '../../../src/lib/i18n/index.ts';

type AstroComponent = Parameters<AstroContainer['renderToString']>[0];

/**
 * Renders a component with the Container API and parses the HTML into a DOM, so tests query it
 * the way assistive technology reads it (role, accessible name and description).
 */
export async function render(Component: AstroComponent, options: ContainerRenderOptions = {}) {
  const container = await AstroContainer.create();
  // Components read the tenant (its language) and tenant-aware links from locals, as on a page.
  const tenant = options.locals?.['tenant'] ?? buildTenant();
  const locals = {
    tenant,
    i18n: i18nFor(tenant),
    href: (path: string) => path,
    ...options.locals,
  } as App.Locals;
  const html = await container.renderToString(Component, { ...options, locals });
  const { document } = new Window();
  document.body.innerHTML = html;
  const body = document.body as unknown as HTMLElement;
  /** The texts an element's `aria-describedby` points at, in order (whitespace collapsed). */
  const descriptions = (element: HTMLElement) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id) => body.querySelector(`#${id}`)?.textContent?.replace(/\s+/g, ' ').trim());
  return { body, descriptions, ...getQueriesForElement(body) };
}
