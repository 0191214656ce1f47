import { runDoctorCli } from './doctor-cli.ts';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingService } from '../../../src/lib/booking/service/service.ts';
import { addDays, todayIn } from '../../../src/lib/booking/domain/dates.ts';
import { readProfileTexts } from '../../../src/lib/profiles/files.ts';
import { resolveProfile } from '../../../src/lib/profiles/schema.ts';
import { publishingClient } from '../../../src/lib/publishing/client.ts';
import { parseTenantsText } from '../../../src/lib/tenants/schema.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import { tenantInput } from '../../fixtures/tenant.ts';
import {
  RANDOM_PROPERTY,
  RANDOM_ROOM,
  RANDOM_TENANT,
  RANDOM_TOKEN,
  startRandomApi,
} from '../../fixtures/random-api.ts';
import type { RandomApi } from '../../fixtures/random-api.ts';

// An API whose paths and field names are made up afresh on every run (tests/fixtures/random-api.ts):
// `npm run doctor -- <id> --write` alone, no hand edit, and the site reads and books through it.
let api: RandomApi;
let dir: string;
const TOKEN_ENV = 'RANDOM_LODGING_TOKEN';
const tenantsFile = () => join(dir, 'tenants.json');
const profilesDir = () => join(dir, 'profiles');
const loadTenant = (): Tenant =>
  parseTenantsText(readFileSync(tenantsFile(), 'utf8'), 'tenants.json').tenants[0]!;

const doctor = (...args: string[]) =>
  runDoctorCli(
    { tenant: RANDOM_TENANT, dir, profiles: true, env: { [TOKEN_ENV]: RANDOM_TOKEN } },
    ...args,
  );

function clients(tenant: Tenant) {
  const upstream = createUpstream();
  const profiles = readProfileTexts(profilesDir());
  const lodging = resolveProfile('lodging', tenant.lodging?.profile, profiles);
  return {
    publishing: publishingClient({
      tenantId: tenant.id,
      baseUrl: tenant.publishing.baseUrl,
      upstream,
      profile: resolveProfile('publishing', tenant.publishing.profile, profiles),
    }),
    booking: bookingService(
      {
        ...tenant,
        lodging: { ...tenant.lodging!, profile: { operations: lodging?.operations ?? {} } },
      },
      { credentials: () => ({ token: RANDOM_TOKEN }), upstream },
    ),
  };
}

beforeAll(async () => {
  api = await startRandomApi();
  dir = mkdtempSync(join(tmpdir(), 'masthead-random-'));
  cpSync('profiles', profilesDir(), { recursive: true });
  const tenant = tenantInput({
    id: RANDOM_TENANT,
    timeZone: 'America/New_York',
    publishing: { baseUrl: api.publishingUrl },
    lodging: { baseUrl: api.lodgingUrl, tokenEnv: TOKEN_ENV, propertyIds: [RANDOM_PROPERTY] },
    features: { booking: true },
  });
  writeFileSync(tenantsFile(), JSON.stringify({ tenants: [tenant] }, null, 2));
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an API in words nobody guessed', () => {
  it('doctor --write alone writes profiles that read every needed field', async () => {
    const { code, out } = await doctor('--write');
    expect(out).toContain(
      'With the new profile: Every operation and field the site needs is readable.',
    );
    expect(code).toBe(0);
    const written = readFileSync(join(profilesDir(), `${RANDOM_TENANT}-publishing.json`), 'utf8');
    expect(written).toContain(`"path": "/${api.words['plans']}"`);
    // Checked again with what it wrote, nothing is left to propose (the writes' paths included).
    const findings = readFileSync(join(dir, 'findings', `${RANDOM_TENANT}.json`), 'utf8');
    const { proposals, unmapped } = JSON.parse(findings) as Record<string, unknown>;
    expect([proposals, unmapped]).toEqual([{}, []]);
  });

  it('the reading works with it', async () => {
    const { publishing } = clients(loadTenant());
    const posts = await publishing.listPosts({ perPage: 5 });
    expect(posts.items[0]).toMatchObject({ title: 'Random story 1', slug: 'random-story-1' });
    const post = await publishing.getPost('random-story-1');
    expect(post.content).toContain('Body of Random story 1.');
    expect(post.author?.name).toBe('Rand Writer');
    expect((await publishing.listCategories())[0]).toMatchObject({ name: 'Harbour' });
    expect((await publishing.getTag('ferries')).tag.name).toBe('Ferries');
    expect((await publishing.listPlans()).map((p) => [p.name, p.price, p.interval])).toEqual([
      ['Digital', '9.90', 'month'],
      ['Annual', '99.00', 'year'],
    ]);
    expect((await publishing.listEditions()).items[0]?.cover_image_url).toContain('morning');
    expect((await publishing.getStream('council')).status).toBe('live');
    const comments = await publishing.listComments('random-story-1');
    expect(comments.items[0]).toMatchObject({ content: 'First!', author_name: 'Reader' });
  });

  it('a new and a returning guest book with it', async () => {
    const { booking } = clients(loadTenant());
    const place = await booking.property(RANDOM_PROPERTY);
    expect(place).toMatchObject({ name: 'Quay Rooms', city: 'Porthaven', currency: 'EUR' });
    const day = (n: number) => addDays(todayIn('America/New_York'), n);
    const offers = await booking.availability({
      property: RANDOM_PROPERTY,
      checkIn: day(40),
      checkOut: day(42),
      adults: 2,
      children: 0,
    });
    expect(offers.rooms.find((r) => r.roomTypeId === RANDOM_ROOM)).toMatchObject({
      available: true,
      totalPrice: 240,
    });
    const base = {
      propertyId: RANDOM_PROPERTY,
      roomTypeId: RANDOM_ROOM,
      adults: 2,
      children: 0,
      phone: '',
      nationality: '',
      notes: '',
    };
    const fresh = await booking.book({
      ...base,
      idempotencyKey: 'random-new-guest-00000000000',
      checkIn: day(40),
      checkOut: day(42),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@r.test',
    });
    expect(fresh).toMatchObject({ totalPrice: 240 });
    expect(fresh.reference).toMatch(/^RX-/);
    const returning = await booking.book({
      ...base,
      idempotencyKey: 'random-returning-guest-000000',
      checkIn: day(50),
      checkOut: day(51),
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@r.test',
    });
    expect(returning.reference).toMatch(/^RX-/);
  });

  it('doctor --writes proves the lodging write path there: a test stay booked and cancelled', async () => {
    const { out } = await doctor('--writes');
    expect(out).toMatch(/✓ lodging bookings\.create: POST \/\w+ · booked RX-\d+/);
    expect(out).toMatch(/✓ lodging bookings\.cancel: DELETE \/\w+\/\{id\} · cancelled RX-\d+/);
  });
});
