import { randomUUID } from 'node:crypto';
import { isoTime } from '../lib/dates.ts';
import { invalid, notFound, readBody } from '../lib/http.ts';
import { cursorPaginate, paginate } from '../lib/paginate.ts';
import { msg, parse } from '../lib/validation.ts';
import type { MockState } from '../state.ts';
import type { LodgeApp, LodgeContext } from './context.ts';
import { isAlt, rulesOf } from './dialect.ts';
import type { Guest } from './model.ts';
import { GuestListQuerySchema } from './schemas.ts';
import { guest } from './serialize.ts';
import { altGuest } from './serialize-alt.ts';

export function guestRoutes(api: LodgeApp, state: MockState): void {
  const own = (c: LodgeContext) =>
    state.lodging.guests.filter((g) => g.accountId === c.get('token').accountId);
  const find = (c: LodgeContext) => own(c).find((g) => g.id === c.req.param('id'));
  /** One guest: `{ data }` in the default dialect, the bare model in alt. */
  const one = (c: LodgeContext, g: Guest, status: 200 | 201 = 200) =>
    isAlt(c) ? c.json(altGuest(g), status) : c.json({ data: guest(g) }, status);

  /** Validates a full guest body; `self` is ignored by the unique e-mail check. */
  async function validate(c: LodgeContext, self?: Guest) {
    const input = parse(rulesOf(c).guest, await readBody(c));
    if (!input.ok) return input;
    const email = input.data.email.toLowerCase();
    if (own(c).some((g) => g !== self && g.email.toLowerCase() === email)) {
      return { ok: false as const, errors: { email: [msg.taken('email')] } };
    }
    return input;
  }

  api.get('/guests', (c) => {
    const query = c.req.query();
    const rules = rulesOf(c);
    const page = parse(rules.page, query);
    const f = parse(GuestListQuerySchema, query);
    if (!page.ok || !f.ok) {
      return invalid(c, { ...(f.ok ? {} : f.errors), ...(page.ok ? {} : page.errors) });
    }
    const q = f.data.search?.toLowerCase();
    const list = own(c)
      .filter(
        (g) => q === undefined || rules.searchFields(g).some((v) => v.toLowerCase().includes(q)),
      )
      .sort(
        (a, b) =>
          a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name),
      );
    return isAlt(c)
      ? c.json(cursorPaginate(list, page.data.per_page, query['cursor'], c.req.url, altGuest))
      : c.json(paginate(list, page.data, c.req.url, guest));
  });

  api.post('/guests', async (c) => {
    const input = await validate(c);
    if (!input.ok) return invalid(c, input.errors);
    const now = isoTime(new Date());
    const created: Guest = {
      id: randomUUID(),
      accountId: c.get('token').accountId,
      ...input.data,
      phone: input.data.phone ?? null,
      nationality: input.data.nationality ?? null,
      createdAt: now,
      updatedAt: now,
    };
    state.lodging.guests.push(created);
    return one(c, created, rulesOf(c).created);
  });

  api.get('/guests/:id', (c) => {
    const g = find(c);
    return g ? one(c, g) : notFound(c);
  });

  api.put('/guests/:id', async (c) => {
    const g = find(c);
    if (!g) return notFound(c);
    const input = await validate(c, g);
    if (!input.ok) return invalid(c, input.errors);
    Object.assign(g, {
      ...input.data,
      phone: input.data.phone ?? null,
      nationality: input.data.nationality ?? null,
      updatedAt: isoTime(new Date()),
    });
    return one(c, g);
  });

  api.delete('/guests/:id', (c) => {
    const g = find(c);
    if (!g) return notFound(c);
    state.lodging.guests = state.lodging.guests.filter((x) => x !== g);
    return isAlt(c) ? c.body(null, 204) : c.json({ message: 'Guest deleted.' });
  });
}
