import { runDoctorCli } from './doctor-cli.ts';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../../mock/index.ts';
import { readProfileTexts } from '../../../src/lib/profiles/files.ts';
import { resolveProfile } from '../../../src/lib/profiles/schema.ts';
import { publishingClient } from '../../../src/lib/publishing/client.ts';
import { parseTenantsText } from '../../../src/lib/tenants/schema.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import { tenantInput } from '../../fixtures/tenant.ts';
import {
  HARBOUR_VIEW,
  STANDARD_DOUBLE,
  day,
  request,
  serviceFor,
  uniqueEmail,
} from '../booking/fixture.ts';
import { demo } from '../harness.ts';

type Mock = Awaited<ReturnType<typeof startMock>>;

// The mock's alt dialect connected the way a new API would be: no profile at all (an empty
// profiles folder, not even the built-in ones), `npm run doctor -- <id> --write` once, and the
// reading and the booking work with what it wrote.
let mock: Mock;
let dir: string;
const TOKEN_ENV = 'ALT_DOCTOR_LODGING_TOKEN';
const TOKEN = demo.lodging['harbour-hotels']!.fullToken;
const profilesDir = () => join(dir, 'profiles');
const tenantsFile = () => join(dir, 'tenants.json');
const loadTenant = (): Tenant =>
  parseTenantsText(readFileSync(tenantsFile(), 'utf8'), 'tenants.json').tenants[0]!;

const doctor = (...args: string[]) =>
  runDoctorCli(
    { tenant: 'harbour-times', dir, profiles: true, env: { [TOKEN_ENV]: TOKEN } },
    ...args,
  );

beforeAll(async () => {
  mock = await startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    dialect: 'alt',
    limits: { publicPerMinute: 0, lodgingPerMinute: 0 },
  });
  dir = mkdtempSync(join(tmpdir(), 'masthead-doctor-alt-'));
  mkdirSync(profilesDir());
  const tenant = tenantInput({
    id: 'harbour-times',
    publishing: { baseUrl: mock.publishingUrl },
    lodging: { baseUrl: mock.lodgingUrl, tokenEnv: TOKEN_ENV, propertyIds: [HARBOUR_VIEW] },
    features: { booking: true },
  });
  writeFileSync(tenantsFile(), JSON.stringify({ tenants: [tenant] }, null, 2));
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the alt dialect from an empty profile', () => {
  it('doctor --write alone writes profiles that read every needed field', async () => {
    const { code, out } = await doctor('--write');
    expect(out).toContain(
      'With the new profile: Every operation and field the site needs is readable.',
    );
    expect(code).toBe(0);
    expect(loadTenant().lodging?.profile).toBe('harbour-times-lodging');
    // The alt names, found by their values: an ISO 4217 code, a stay total, the rooms' list.
    const written = readFileSync(join(profilesDir(), 'harbour-times-lodging.json'), 'utf8');
    expect(written).toContain('"currency": "currency_code"');
    expect(written).toContain('"room_types": "rooms"');
    expect(written).toContain('"reference": "confirmation_code"');
  });

  it('the reading works with it', async () => {
    const tenant = loadTenant();
    const publishing = publishingClient({
      tenantId: tenant.id,
      baseUrl: tenant.publishing.baseUrl,
      upstream: createUpstream(),
      profile: resolveProfile(
        'publishing',
        tenant.publishing.profile,
        readProfileTexts(profilesDir()),
      ),
    });
    const posts = await publishing.listPosts({ perPage: 5 });
    expect(posts.items.length).toBeGreaterThan(0);
    const post = await publishing.getPost(posts.items[0]!.slug);
    expect(post.content.length).toBeGreaterThan(0);
    expect((await publishing.listPlans()).length).toBeGreaterThan(0);
    const editions = await publishing.listEditions();
    expect(editions.items[0]?.cover_image_url).toBeTruthy();
    expect(editions.items[0]?.published_at).toBeTruthy();
  });

  it('a new and a returning guest book with it', async () => {
    const tenant = loadTenant();
    const written = resolveProfile(
      'lodging',
      tenant.lodging?.profile,
      readProfileTexts(profilesDir()),
    );
    const { service } = serviceFor(mock.lodgingUrl, {
      lodging: { profile: { operations: written?.operations ?? {} } },
    });
    const place = await service.property(HARBOUR_VIEW);
    expect(place.currency).toBe('GBP');
    const offers = await service.availability({
      property: HARBOUR_VIEW,
      checkIn: day(120),
      checkOut: day(122),
      adults: 2,
      children: 0,
    });
    expect(offers.rooms.find((r) => r.roomTypeId === STANDARD_DOUBLE)?.available).toBe(true);
    const fresh = await service.book(
      request({ checkIn: day(120), checkOut: day(122), email: uniqueEmail('alt-new') }),
    );
    expect(fresh.statusKind).toBe('received');
    const account = mock.state.lodging.properties.find((p) => p.id === HARBOUR_VIEW)!.accountId;
    const guest = mock.state.lodging.guests.find((g) => g.accountId === account)!;
    const returning = await service.book(
      request({
        checkIn: day(125),
        checkOut: day(126),
        firstName: guest.first_name,
        lastName: guest.last_name,
        email: guest.email,
      }),
    );
    expect(returning.statusKind).toBe('received');
  });
});
