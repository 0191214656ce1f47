import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import { doctorLines } from '../../../src/lib/profiles/doctor/lines.ts';
import { profileWrites } from '../../../src/lib/profiles/doctor/save.ts';
import { parseMaps } from '../../../src/lib/profiles/doctor/maps.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// A plan list whose billing period is a one-letter code: no value there reads as an interval, so the
// doctor shows the answer beside the need, names the gap in the profile it writes, and takes --map.
const BASE = 'https://settle.example.com/api/v1';
const plans = [
  { name: 'Gold', slug: 'gold', price: '9.90', currency: 'EUR', cycle: { unit: 'M', n: 1 } },
  { name: 'Year', slug: 'year', price: '99.00', currency: 'EUR', cycle: { unit: 'Y', n: 1 } },
];
const fakeFetch = ((input: URL | string) => {
  const path = new URL(String(input)).pathname.replace('/api/v1', '');
  const body =
    path === '/plans' ? { data: plans } : path === '/plans/gold' ? { data: plans[0] } : undefined;
  return Promise.resolve(body ? Response.json(body) : Response.json({}, { status: 404 }));
}) as typeof fetch;

const tenant = buildTenant({ id: 'settle', name: 'Settle', publishing: { baseUrl: BASE } });
const run = (maps = {}) =>
  runDoctor({ tenant, profiles: new Map(), secrets: {}, fetch: fakeFetch, maps });

describe('where the doctor cannot decide', () => {
  it("prints the answer's shape beside the need and how to settle it", async () => {
    const report = await run();
    const lines = doctorLines(report).join('\n');
    expect(lines).toContain('✗ interval: not found');
    expect(lines).toContain('not decided: interval; the answer has (first record):');
    expect(lines).toContain('      cycle.unit: string = M');
    expect(lines).toContain(
      'settle with: npm run doctor -- settle --map plans.list.interval=<path>',
    );
    expect(report.unmapped).toContain('publishing plans.list → interval: not found');
  });

  it('writes a stub profile that names the gap', async () => {
    const [write] = profileWrites(await run(), tenant, new Map());
    const file = JSON.parse(write?.text ?? '{}') as { description: string };
    expect(file.description).toContain('Not found yet: plans.list.interval;');
    expect(file.description).toContain('--map <operation>.<need>=<path>');
  });

  it('--map settles it: checked again, and saved with the proposals', async () => {
    const report = await run(
      parseMaps(['plans.list.interval=cycle.unit', 'plans.get.interval=cycle.unit']),
    );
    const list = report.operations.find((o) => o.operation === 'plans.list');
    expect(list?.fields.find((f) => f.need === 'interval')).toMatchObject({
      found: true,
      path: 'cycle.unit',
      sample: 'M',
    });
    expect(report.unmapped.filter((u) => u.includes('not found'))).toEqual([]);
    const [write] = profileWrites(report, tenant, new Map());
    expect(write?.text).toContain('"interval": "cycle.unit"');
  });
});

// The doctor's own advice, followed: `--write` once (a gap left), then `--write --map` for the gap.
describe('a second --write on the profile the first one wrote', () => {
  const titled = plans.map(({ name, ...plan }) => ({ label: name, ...plan }));
  const titledFetch = ((input: URL | string) => {
    const path = new URL(String(input)).pathname.replace('/api/v1', '');
    const body =
      path === '/plans' ? { data: titled } : path === '/plans/gold' ? { data: titled[0] } : {};
    return Promise.resolve(Response.json(body, { status: path.startsWith('/plans') ? 200 : 404 }));
  }) as typeof fetch;

  it('keeps what the first one found beside what --map settles', async () => {
    const first = await runDoctor({ tenant, profiles: new Map(), secrets: {}, fetch: titledFetch });
    const [written] = profileWrites(first, tenant, new Map());
    expect(written?.text).toContain('"name": "label"');
    expect(written?.text).toContain('Not found yet: plans.list.interval');
    const profiles = new Map([
      [
        written?.name ?? '',
        { source: 'profiles/settle-publishing.json', text: written?.text ?? '' },
      ],
    ]);
    const named = { ...tenant, publishing: { ...tenant.publishing, profile: written?.name } };
    const second = await runDoctor({
      tenant: named,
      profiles,
      secrets: {},
      fetch: titledFetch,
      maps: parseMaps(['plans.list.interval=cycle.unit', 'plans.get.interval=cycle.unit']),
    });
    const [rewritten] = profileWrites(second, named, profiles);
    const file = JSON.parse(rewritten?.text ?? '{}') as {
      operations: Record<string, { fields?: Record<string, string> }>;
    };
    expect(file.operations['plans.list']?.fields).toEqual({
      name: 'label',
      interval: 'cycle.unit',
    });
  });
});
