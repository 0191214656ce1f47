import { dialectOf } from '../lib/dialect.ts';
import { invalid, notFound } from '../lib/http.ts';
import { pageQuery, paginate } from '../lib/paginate.ts';
import { parse } from '../lib/validation.ts';
import type { MockState } from '../state.ts';
import { hasPaidAccess, type PubApp, type PubContext } from './context.ts';
import type { Stream } from './model.ts';
import { edition, plan, stream } from './serialize.ts';

const STATUS_ORDER: Record<Stream['status'], number> = { live: 0, scheduled: 1, ended: 2 };

/** Live first, then scheduled soonest first, then ended latest first. */
function streamOrder(a: Stream, b: Stream): number {
  const byStatus = STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
  if (byStatus) return byStatus;
  if (a.status === 'scheduled') return a.scheduledAt.localeCompare(b.scheduledAt);
  if (a.status === 'ended') return (b.endedAt ?? '').localeCompare(a.endedAt ?? '');
  return (b.startedAt ?? '').localeCompare(a.startedAt ?? '');
}

/** Plans, e-paper editions and streams. */
export function catalogRoutes(api: PubApp, state: MockState): void {
  const out = (c: PubContext) => ({
    origin: state.origins.publishing,
    site: c.get('site'),
    alt: dialectOf(c) === 'alt',
    media: state.media,
  });

  api.get('/plans', (c) => {
    const plans = c
      .get('site')
      .plans.filter((p) => p.active)
      .sort((a, b) => a.position - b.position);
    return c.json({ data: plans.map((p) => plan(out(c), p)) });
  });

  api.get('/plans/:slug', (c) => {
    const p = c.get('site').plans.find((x) => x.slug === c.req.param('slug') && x.active);
    return p ? c.json({ data: plan(out(c), p) }) : notFound(c, 'Plan not found.');
  });

  api.get('/epaper', (c) => {
    const page = parse(pageQuery(12, 50), c.req.query());
    if (!page.ok) return invalid(c, page.errors);
    const access = hasPaidAccess(c.get('user'));
    const list = [...c.get('site').editions].sort((a, b) =>
      b.publishedAt.localeCompare(a.publishedAt),
    );
    return c.json(paginate(list, page.data, c.req.url, (e) => edition(out(c), e, access, false)));
  });

  api.get('/epaper/:slug', (c) => {
    const e = c.get('site').editions.find((x) => x.slug === c.req.param('slug'));
    if (!e) return notFound(c, 'Edition not found.');
    return c.json({ data: edition(out(c), e, hasPaidAccess(c.get('user')), true) });
  });

  api.get('/streams', (c) => {
    const page = parse(pageQuery(12, 50), c.req.query());
    if (!page.ok) return invalid(c, page.errors);
    const list = [...c.get('site').streams].sort(streamOrder);
    return c.json(paginate(list, page.data, c.req.url, (s) => stream(out(c), s)));
  });

  api.get('/streams/:slug', (c) => {
    const s = c.get('site').streams.find((x) => x.slug === c.req.param('slug'));
    return s ? c.json({ data: stream(out(c), s) }) : notFound(c, 'Stream not found.');
  });
}
