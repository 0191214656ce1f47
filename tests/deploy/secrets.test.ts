/**
 * `npm start` with every tenant secret in one SECRETS_FILE and no token variable (issue 35): it
 * books on harbour-times with the file's lodging token, says in one line what each tenant lacks,
 * takes alpine-post's token on SIGHUP without a restart, and refuses a file others may read.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { day } from '../fixtures/dates.ts';
import { send, waitFor } from './http.ts';
import type { Service } from './processes.ts';
import { OUT_DIR, startDocumentedMock, startSite, type Mock } from './stack.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const demo = JSON.parse(
  readFileSync(new URL('../../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as { lodging: Record<string, { fullToken: string }> };

const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const ALPINE_LODGE = '2f7e65da-5ffa-5e37-b3a8-dd6d533190d1';
const PURGE = 'deploy-suite-S3CRET-purge-0123456789abcdef';
/** Every token variable tenants.json names, emptied: the file is the only source. */
const NO_VARIABLES = { HARBOUR_LODGING_TOKEN: '', ALPINE_LODGING_TOKEN: '', PURGE_SECRETS: '' };

let mock: Mock;
let site: Service;
let dir: string;
let file: string;

function writeSecrets(content: unknown, mode = 0o600): void {
  writeFileSync(file, JSON.stringify(content));
  chmodSync(file, mode);
}

const harbourOnly = () => ({
  'harbour-times': {
    lodgingToken: demo.lodging['harbour-hotels']!.fullToken,
    purgeSecret: PURGE,
  },
});

const url = (path: string) => `http://127.0.0.1:${site.port}${path}`;

function availability(host: string, property: string, from: number) {
  const query = new URLSearchParams({
    property,
    checkIn: day(from),
    checkOut: day(from + 2),
    adults: '2',
  });
  return send(url(`/api/booking/availability?${query}`), { host });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'masthead-deploy-secrets-'));
  file = join(dir, 'secrets.json');
  writeSecrets(harbourOnly());
  mock = await startDocumentedMock();
  site = await startSite({ mock, env: { SECRETS_FILE: file, ...NO_VARIABLES } });
});

afterAll(async () => {
  await site?.stop();
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start with only SECRETS_FILE', () => {
  it('books on harbour-times with the lodging token from the file', async () => {
    const search = await availability('harbour-times.localhost', HARBOUR_VIEW, 160);
    expect(search.status, search.text).toBe(200);
    const offers = JSON.parse(search.text) as {
      data: { rooms: { roomTypeId: string; available: boolean }[] };
    };
    const room = offers.data.rooms.find((offer) => offer.available)!;
    const host = 'harbour-times.localhost';
    const booked = await send(url('/api/booking/bookings'), {
      method: 'POST',
      host,
      headers: { 'Content-Type': 'application/json', Origin: `http://${host}` },
      body: JSON.stringify({
        idempotencyKey: `deploy-secrets-${Date.now().toString(36)}`,
        propertyId: HARBOUR_VIEW,
        roomTypeId: room.roomTypeId,
        checkIn: day(160),
        checkOut: day(162),
        adults: 2,
        children: 0,
        firstName: 'Sam',
        lastName: 'Secret',
        email: 'sam.secret@example.com',
        phone: '',
        nationality: '',
        notes: '',
      }),
    });
    expect(booked.status, booked.text).toBe(200);
    expect(booked.text).toMatch(/BK-/);
  });

  it('says at start, in one line, which tenant lacks which secret, and no value', () => {
    const lines = site.printed.split('\n').filter((line) => line.includes('"tenants.secrets"'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      '3 of 3 tenant(s) lack one: no publishingReadToken + purgeSecret: daily-planet; ' +
        'no publishingReadToken: harbour-times; ' +
        'no publishingReadToken + lodgingToken + purgeSecret: alpine-post.',
    );
    expect(site.printed).not.toContain('S3CRET');
    expect(site.printed).not.toContain(demo.lodging['harbour-hotels']!.fullToken);
  });

  it("takes alpine-post's lodging token on SIGHUP, without a restart", async () => {
    expect((await availability('alpine-post.localhost', ALPINE_LODGE, 170)).status).toBe(503);
    writeSecrets({
      ...harbourOnly(),
      'alpine-post': { lodgingToken: demo.lodging['alpine-lodges']!.fullToken },
    });
    process.kill(site.pid!, 'SIGHUP');
    await waitFor('alpine-post to search rooms', async () => {
      const search = await availability('alpine-post.localhost', ALPINE_LODGE, 172);
      return search.status === 200 ? search : undefined;
    });
    const lines = site.printed.split('\n').filter((line) => line.includes('"tenants.secrets"'));
    expect(lines.at(-1)).toContain(
      'no publishingReadToken + purgeSecret: daily-planet, alpine-post',
    );
  });
});

/** `npm start` with `SECRETS_FILE=file`, expected to refuse: its exit code and what it printed. */
function refusedStart(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
      env: {
        ...process.env,
        ...NO_VARIABLES,
        HOST: '127.0.0.1',
        PORT: '0',
        MASTHEAD_OUT_DIR: OUT_DIR,
        SECRETS_FILE: file,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('error', reject);
    child.once('exit', (exit) => {
      clearTimeout(timer);
      resolve({ code: exit, output: printed });
    });
  });
}

describe('npm start with a secrets file it cannot use', () => {
  it('refuses a file others may read, naming the file and its mode, never a value', async () => {
    const open = join(dir, 'open.json');
    writeFileSync(open, JSON.stringify(harbourOnly()));
    chmodSync(open, 0o644);
    const { code, output } = await refusedStart(open);
    expect(code).toBeGreaterThan(0);
    expect(output).toContain(
      `Masthead cannot start: The secrets file ${open} cannot be used: its mode 0644`,
    );
    expect(output).not.toContain('S3CRET');
  });

  it('refuses a purge secret shorter than 32 characters, naming the tenant, never the value', async () => {
    const short = join(dir, 'short.json');
    writeFileSync(short, JSON.stringify({ 'harbour-times': { purgeSecret: 'S3CRET-too-short' } }));
    chmodSync(short, 0o600);
    const { code, output } = await refusedStart(short);
    expect(code).toBeGreaterThan(0);
    expect(output).toContain(
      `The secrets file ${short} cannot be used: harbour-times.purgeSecret: must be at least 32 characters`,
    );
    expect(output).not.toContain('S3CRET');
  });
});
