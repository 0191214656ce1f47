import { describe, expect, it } from 'vitest';
import { withSiteLinks } from '../../../src/lib/content/post-links.ts';
import { sanitizePostHtml } from '../../../src/lib/content/sanitize.ts';
import { tenantHref } from '../../../src/lib/tenants/resolution.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';

const tenant = { id: 'daily-planet' } as Tenant;
const html = sanitizePostHtml(
  '<p><a href="/posts/other?ref=a&amp;x=1#c">post</a> <a href="https://e.example/posts/y">away</a> href="/posts/z"</p>',
);

describe('withSiteLinks keeps post links on the tenant however it was reached', () => {
  it.each([
    ['by host', { via: 'host', basePath: '' }, '/posts/other?ref=a&amp;x=1#c'],
    [
      'by path prefix',
      { via: 'path', basePath: '/daily-planet' },
      '/daily-planet/posts/other?ref=a&amp;x=1#c',
    ],
    [
      'by ?tenant=',
      { via: 'query', basePath: '' },
      '/posts/other?ref=a&amp;x=1&amp;tenant=daily-planet#c',
    ],
  ] as const)('%s', (_label, match, link) => {
    const out = withSiteLinks(html, (path) => tenantHref({ ...match, tenant }, path));
    expect(out).toContain(`<a href="${link}">post</a>`);
    // Other sites' links and text that merely looks like an attribute stay as they were.
    expect(out).toContain('href="https://e.example/posts/y"');
    expect(out).toContain(' href="/posts/z"</p>');
  });
});
