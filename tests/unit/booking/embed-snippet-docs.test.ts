import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stayLinkSchema } from '../../../src/lib/booking/domain/schema.ts';

const docs = readFileSync(new URL('../../../docs/booking-partners.md', import.meta.url), 'utf8');
const snippet = /```html\n([\s\S]*?)```/.exec(docs)?.[1] ?? '';

describe('the embed snippet partners copy (docs/booking-partners.md)', () => {
  it('has a <noscript> link to the booking page that keeps the tag’s stay', () => {
    const noscript = /<noscript>([\s\S]*?)<\/noscript>/.exec(snippet)?.[1] ?? '';
    const href = /href="([^"]+)"/.exec(noscript)?.[1] ?? '';
    const link = new URL(href.replace('<site>', 'site.example').replace('<uuid>', 'x'));
    expect(link.pathname).toBe('/stay');
    const tag = new Map<string, string>(
      [...snippet.matchAll(/data-(check-in|check-out|adults)="([^"]+)"/g)].map(
        (m) => [m[1] ?? '', m[2] ?? ''] as [string, string],
      ),
    );
    const values = stayLinkSchema.parse(Object.fromEntries(link.searchParams));
    expect(values).toMatchObject({
      checkIn: tag.get('check-in'),
      checkOut: tag.get('check-out'),
      adults: Number(tag.get('adults')),
    });
  });
});
