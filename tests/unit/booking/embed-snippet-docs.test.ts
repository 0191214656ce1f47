import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stayLinkSchema } from '../../../src/lib/booking/schema.ts';

const docs = readFileSync(new URL('../../../docs/booking-partners.md', import.meta.url), 'utf8');
const snippet = /```html\n([\s\S]*?)```/.exec(docs)?.[1] ?? '';

describe('the embed snippet partners copy (docs/booking-partners.md)', () => {
  it('has a <noscript> link to the booking page that keeps the tag’s stay', () => {
    const noscript = /<noscript>([\s\S]*?)<\/noscript>/.exec(snippet)?.[1] ?? '';
    const href = /href="([^"]+)"/.exec(noscript)?.[1] ?? '';
    const link = new URL(href.replace('<site>', 'site.example').replace('<uuid>', 'x'));
    expect(link.pathname).toBe('/stay');
    const tag = Object.fromEntries(
      [...snippet.matchAll(/data-(check-in|check-out|adults)="([^"]+)"/g)].map((m) => [m[1], m[2]]),
    );
    const values = stayLinkSchema.parse(Object.fromEntries(link.searchParams));
    expect(values).toMatchObject({
      checkIn: tag['check-in'],
      checkOut: tag['check-out'],
      adults: Number(tag['adults']),
    });
  });
});
