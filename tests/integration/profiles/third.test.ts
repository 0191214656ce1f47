import { runDoctorCli } from './doctor-cli.ts';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingService } from '../../../src/lib/booking/service/service.ts';
import { addDays, todayIn } from '../../../src/lib/booking/domain/dates.ts';
import { formatDate } from '../../../src/lib/i18n/format.ts';
import { readProfileTexts } from '../../../src/lib/profiles/files.ts';
import { resolveProfile } from '../../../src/lib/profiles/schema.ts';
import { publishingClient } from '../../../src/lib/publishing/client.ts';
import { parseTenantsText } from '../../../src/lib/tenants/schema.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';
import { clearFindings, operationFindings } from '../../../src/lib/upstream/metrics.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import {
  THIRD_PROPERTY,
  THIRD_ROOM,
  THIRD_TENANT,
  THIRD_TOKEN,
  startThirdApi,
  thirdTenantsJson,
} from '../../fixtures/third-api.ts';
import type { ThirdApi } from '../../fixtures/third-api.ts';

// A developer points a tenant at an API shaped like neither mock dialect, runs the doctor once,
// and reading and booking work without a change to src/.
let api: ThirdApi;
let dir: string;
const TOKEN_ENV = 'THIRD_LODGING_TOKEN';

const tenantsJson = () => thirdTenantsJson(api, 'third.example.com', TOKEN_ENV);

const tenantsFile = () => join(dir, 'tenants.json');
const profilesDir = () => join(dir, 'profiles');
const loadTenant = (): Tenant =>
  parseTenantsText(readFileSync(tenantsFile(), 'utf8'), 'tenants.json').tenants[0]!;

const doctor = (...args: string[]) =>
  runDoctorCli(
    { tenant: THIRD_TENANT, dir, profiles: true, env: { [TOKEN_ENV]: THIRD_TOKEN } },
    ...args,
  );

function clients(tenant: Tenant) {
  const upstream = createUpstream();
  const profiles = readProfileTexts(profilesDir());
  return {
    publishing: publishingClient({
      tenantId: tenant.id,
      baseUrl: tenant.publishing.baseUrl,
      upstream,
      profile: resolveProfile('publishing', tenant.publishing.profile, profiles),
    }),
    // The booking service reads bundled profiles; the written one goes in inline, as a tenant may.
    booking: bookingService(
      {
        ...tenant,
        lodging: {
          ...tenant.lodging!,
          profile: tenant.lodging?.profile && {
            operations: resolveProfile('lodging', tenant.lodging.profile, profiles)!.operations,
          },
        },
      },
      { credentials: () => ({ token: THIRD_TOKEN }), upstream },
    ),
  };
}

beforeAll(async () => {
  api = await startThirdApi();
  dir = mkdtempSync(join(tmpdir(), 'masthead-third-'));
  cpSync('profiles', profilesDir(), { recursive: true });
  writeFileSync(tenantsFile(), tenantsJson());
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an API shaped like neither dialect', () => {
  it('without a profile, the site says which operations and fields it cannot read', async () => {
    clearFindings();
    const { publishing, booking } = clients(loadTenant());
    await expect(publishing.listPosts()).rejects.toThrow(/does not match the expected shape/);
    await expect(publishing.listPlans()).rejects.toThrow();
    await expect(booking.property(THIRD_PROPERTY)).rejects.toMatchObject({ status: 503 });
    const findings = operationFindings(THIRD_TENANT);
    expect(findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operation: 'posts.list',
          state: 'unreadable',
          issues: expect.stringContaining('items') as unknown,
        }),
        expect.objectContaining({ operation: 'plans.list', state: 'no-route', status: 404 }),
      ]),
    );
    const property = operationFindings(`tenant:${THIRD_TENANT}`).find(
      (f) => f.operation === 'properties.get',
    );
    expect(property?.missing).toEqual(expect.arrayContaining(['name', 'city']));
  });

  it('the doctor reports what is missing, exits non-zero and never prints the token', async () => {
    const { code, out } = await doctor();
    expect(code).toBe(1);
    expect(out).toContain(
      '~ publishing plans.list: GET /plans → 404, found at /subscription-plans (proposed)',
    );
    expect(out).toMatch(/~ title: headline \(proposed\) = Third story 1/);
    expect(out).toContain('rate limit 59/60 left');
    expect(out).toContain('Not readable yet');
    expect(out).not.toContain(THIRD_TOKEN);
  });

  it('doctor --write saves a profile that makes every needed field readable', async () => {
    const { code, out } = await doctor('--write');
    expect(out).toContain('Every operation and field the site needs is readable.');
    expect(code).toBe(0);
    const tenant = loadTenant();
    expect(tenant.publishing.profile).toBe(`${THIRD_TENANT}-publishing`);
    expect(tenant.lodging?.profile).toBe(`${THIRD_TENANT}-lodging`);
    const written = JSON.parse(
      readFileSync(join(profilesDir(), `${THIRD_TENANT}-publishing.json`), 'utf8'),
    ) as { operations: Record<string, { path?: string }> };
    expect(written.operations['plans.list']?.path).toBe('/subscription-plans');
    // A second run finds nothing left to do.
    expect((await doctor()).code).toBe(0);
  });

  it('with that profile the reading journey works: lists, pages, detail, archives, plans, e-paper, streams, comments', async () => {
    const tenant = loadTenant();
    const { publishing } = clients(tenant);
    const first = await publishing.listPosts({ perPage: 10 });
    expect(first.items[0]).toMatchObject({ title: 'Third story 1', slug: 'third-story-1' });
    expect(first.page).toMatchObject({ total: 14, last: 2 });
    expect((await publishing.listPosts({ page: 2, perPage: 10 })).items).toHaveLength(4);
    const post = await publishing.getPost('third-story-1');
    expect(post.content).toContain('Body of story 1.');
    expect(post.author?.name).toBe('Third Writer');
    const [category] = await publishing.listCategories();
    expect(category).toMatchObject({ name: 'Harbour', slug: 'harbour' });
    expect((await publishing.getCategory('harbour')).posts.items[0]?.title).toMatch(/Third story/);
    expect((await publishing.getTag('ferries')).tag.name).toBe('Ferries');
    expect((await publishing.listPlans()).map((p) => [p.name, p.price, p.interval])).toEqual([
      ['Digital', '9.90', 'month'],
      ['Annual', '99.00', 'year'],
    ]);
    const editions = await publishing.listEditions();
    // A date-only issue date stays that day in New York.
    expect(formatDate(editions.items[0]?.published_at, tenant)).toBe('November 22, 2026');
    expect((await publishing.getEdition('morning')).pages).toHaveLength(2);
    expect((await publishing.getStream('council')).status).toBe('live');
    const comments = await publishing.listComments('third-story-1');
    expect(comments.items[0]).toMatchObject({ content: 'First!', author_name: 'Reader' });
  });

  it('with that profile a new guest and a returning guest book', async () => {
    const { booking } = clients(loadTenant());
    const place = await booking.property(THIRD_PROPERTY);
    expect(place).toMatchObject({ name: 'Quay Rooms', city: 'Porthaven', currency: 'EUR' });
    const day = (n: number) => addDays(todayIn('America/New_York'), n);
    const offers = await booking.availability({
      property: THIRD_PROPERTY,
      checkIn: day(40),
      checkOut: day(42),
      adults: 2,
      children: 0,
    });
    const room = offers.rooms.find((r) => r.roomTypeId === THIRD_ROOM)!;
    expect(room).toMatchObject({ available: true, totalPrice: 240 });

    const base = {
      propertyId: THIRD_PROPERTY,
      roomTypeId: THIRD_ROOM,
      adults: 2,
      children: 0,
      phone: '',
      nationality: '',
      notes: '',
    };
    const fresh = await booking.book({
      ...base,
      idempotencyKey: 'third-new-guest-000000000000',
      checkIn: day(40),
      checkOut: day(42),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@third.test',
    });
    expect(fresh).toMatchObject({ reference: 'TH-1001', totalPrice: 240, currency: 'EUR' });
    const guestsBefore = api.calls.filter((c) => c === 'POST /lodging/api/v1/guests').length;
    const returning = await booking.book({
      ...base,
      idempotencyKey: 'third-returning-guest-0000000',
      checkIn: day(50),
      checkOut: day(51),
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@third.test',
    });
    expect(returning.reference).toMatch(/^TH-/);
    // Grace is on file: her request goes under the tenant's online-requests record
    // (docs/api-assumptions.md), never a second record of hers; that shared record is made once.
    expect(api.calls.filter((c) => c === 'POST /lodging/api/v1/guests').length).toBe(
      guestsBefore + 1,
    );
  });
});
