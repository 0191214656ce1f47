import { runDoctorCli } from './doctor-cli.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../../mock/index.ts';
import { tenantInput } from '../../fixtures/tenant.ts';
import { demo } from '../harness.ts';

type Mock = Awaited<ReturnType<typeof startMock>>;

// `npm run doctor -- <tenant> --writes` on a tenant that books: the lodging write path is proven on
// a test stay it books and cancels at once, and it says so before it starts. Never without --writes.
const PROPERTY = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const TOKEN_ENV = 'DOCTOR_WRITES_LODGING_TOKEN';
let mock: Mock;
let dir: string;

const doctor = (...args: string[]) =>
  runDoctorCli(
    {
      tenant: 'harbour-times',
      dir,
      env: { [TOKEN_ENV]: demo.lodging['harbour-hotels']!.fullToken },
    },
    ...args,
  );

const testStays = () =>
  mock.state.lodging.bookings.filter((b) => (b.notes ?? '').includes('Masthead doctor test stay'));

beforeAll(async () => {
  mock = await startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    limits: { publicPerMinute: 0, lodgingPerMinute: 0 },
  });
  dir = mkdtempSync(join(tmpdir(), 'masthead-doctor-lodging-writes-'));
  const tenant = tenantInput({
    id: 'harbour-times',
    publishing: { baseUrl: mock.publishingUrl },
    lodging: { baseUrl: mock.lodgingUrl, tokenEnv: TOKEN_ENV, propertyIds: [PROPERTY] },
    features: { booking: true },
  });
  writeFileSync(join(dir, 'tenants.json'), JSON.stringify({ tenants: [tenant] }));
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run doctor -- <tenant> --writes, lodging', () => {
  it('books nothing without --writes', async () => {
    const bookings = mock.state.lodging.bookings.length;
    await doctor();
    expect(mock.state.lodging.bookings.length).toBe(bookings);
  });

  it('says it will, then books a test stay and cancels it at once', async () => {
    const { code, out } = await doctor('--writes');
    const notice = out.indexOf('Lodging writes (--writes): booking a test stay at property');
    expect(notice).toBeGreaterThan(-1);
    expect(out).toContain('and cancelling it at once');
    expect(out.lastIndexOf('✓ lodging properties.availability')).toBeGreaterThan(notice);
    expect(out).toMatch(/✓ lodging guests\.create: POST \/guests · test guest masthead-doctor-/);
    expect(out).toMatch(/✓ lodging bookings\.create: POST \/bookings · booked \S+/);
    expect(out).toMatch(/✓ lodging bookings\.cancel: DELETE \/bookings\/\{id\} · cancelled \S+/);
    expect(code).toBe(0);
    const stays = testStays();
    expect(stays).toHaveLength(1);
    expect(stays[0]?.status).toBe('cancelled');
  });
});
