import { describe, expect, it } from 'vitest';
import StreamBadge from '../../../src/components/streams/StreamBadge.astro';
import StreamTime from '../../../src/components/streams/StreamTime.astro';
import { streamSchema } from '../../../src/lib/publishing/schema.ts';
import { streamState } from '../../../src/lib/streams/status.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { render } from './render.ts';

const start = Date.parse('2026-11-27T20:00:00Z');
const stream = streamSchema.parse({
  title: 'Council',
  slug: 'council',
  status: 'scheduled',
  scheduled_at: '2026-11-27T20:00:00',
});

describe('a stream the upstream still calls scheduled 20 minutes after its start', () => {
  const now = start + 20 * 60_000;

  it.each([
    ['en-US', 'America/New_York', 'Delayed', 'Should have started Nov 27, 2026, 3:00 PM EST'],
    ['de-CH', 'Europe/Zurich', 'Verspätet', 'Geplanter Beginn war 27.11.2026, 21:00 MEZ'],
    ['fr-FR', 'Europe/Paris', 'En retard', 'Devait commencer le 27 nov. 2026, 21:00 UTC+1'],
  ])(
    'reads in %s: a %s badge and when it should have started',
    async (locale, timeZone, badge, line) => {
      const tenant = buildTenant({ locale, timeZone });
      const words = (text: string | null | undefined) =>
        (text ?? '').replace(/[\u202f\u00a0\s]+/g, ' ').trim();
      const shownBadge = await render(StreamBadge, {
        locals: { tenant } as Partial<App.Locals> as App.Locals,
        props: { status: streamState(stream, now), stream },
      });
      expect(words(shownBadge.body.textContent)).toBe(badge);
      const time = await render(StreamTime, {
        locals: { tenant } as Partial<App.Locals> as App.Locals,
        props: { stream, now },
      });
      const text = time.body.querySelector('p')?.textContent ?? '';
      expect(words(text)).toBe(line);
      // Nothing before the label (the e2e suite reads the line's start).
      expect(text.startsWith(line.split(' ')[0] ?? '')).toBe(true);
    },
  );
});
