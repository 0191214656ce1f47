import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readProfileTexts } from '../../../src/lib/profiles/files.ts';
import {
  checkTenantProfiles,
  parseProfileText,
  profileTexts,
  resolveProfile,
} from '../../../src/lib/profiles/schema.ts';
import { parseTenantsFile } from '../../../src/lib/tenants/schema.ts';
import { tenantInput } from '../../fixtures/tenant.ts';

const files = (entries: Record<string, unknown>) =>
  profileTexts(
    Object.entries(entries).map(([name, body]) => [`${name}.json`, JSON.stringify(body)]),
  );

describe('profile files', () => {
  it('every built-in profile is valid and resolves', () => {
    const texts = readProfileTexts();
    expect([...texts.keys()].sort()).toEqual([
      'lodging-alt',
      'lodging-default',
      'publishing-alt',
      'publishing-default',
    ]);
    expect(
      resolveProfile('publishing', 'publishing-alt', texts)?.operations['posts.get'],
    ).toMatchObject({ fields: { cover_image_url: ['featured_image.url'] } });
    expect(
      resolveProfile('lodging', 'lodging-alt', texts)?.operations['properties.availability']
        ?.fields?.['room_types[].available_rooms'],
    ).toEqual(['available_rooms', 'units_available', 'available_units']);
  });

  it('names the file and the field of each mistake', () => {
    const text = JSON.stringify({
      service: 'publishing',
      operations: {
        'posts.list': { path: 'posts', fields: { 'Title!': 'headline' } },
        'plans.list': { method: 'FETCH' },
      },
    });
    let message = '';
    try {
      parseProfileText(text, 'profiles/my-api.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('Invalid profiles/my-api.json:');
    expect(message).toContain(
      'profiles/my-api.json → operations.posts.list.path: Expected a path relative to the base address',
    );
    expect(message).toContain('operations.posts.list.fields.Title!');
    expect(message).toContain('operations.plans.list.method');
    expect(() =>
      parseProfileText(
        JSON.stringify({ service: 'publishing', operations: { 'bookings.list': {} } }),
        'profiles/mixed.json',
      ),
    ).toThrow(
      'profiles/mixed.json → operations.bookings.list: "bookings.list" is not a publishing operation',
    );
    expect(message).not.toMatch(/at .*\.ts:\d+/);
  });

  it('says which JSON is broken, and where, as tenants.json does', () => {
    expect(() => parseProfileText('{\n  "service": ', 'profiles/x.json')).toThrow(
      /Invalid profiles\/x.json: not valid JSON at line 2, column 14/,
    );
  });

  it('an unknown name, a loop and a profile of the other service are refused by name', () => {
    const texts = files({
      a: { service: 'publishing', extends: 'b' },
      b: { service: 'publishing', extends: 'a' },
      l: { service: 'lodging' },
    });
    expect(() => resolveProfile('publishing', 'nope', texts)).toThrow(
      'Unknown publishing profile "nope" (profiles/: a, b, l)',
    );
    expect(() => resolveProfile('publishing', 'a', texts)).toThrow(/extends itself/);
    expect(() => resolveProfile('publishing', 'l', texts)).toThrow(
      'profiles/l.json is a lodging profile, named for publishing',
    );
  });

  it('a tenant naming a profile that does not exist is named with the field', () => {
    const tenant = parseTenantsFile({
      tenants: [
        tenantInput({ publishing: { baseUrl: 'https://x.test/api/v1', profile: 'my-api' } }),
      ],
    }).tenants;
    expect(() => checkTenantProfiles(tenant, readProfileTexts())).toThrow(
      'tenant "gazette" → publishing.profile: Unknown publishing profile "my-api" (profiles/: lodging-alt, lodging-default, publishing-alt, publishing-default)',
    );
  });

  it('an inline profile changes parts of the one it extends', () => {
    const texts = files({
      base: {
        service: 'publishing',
        operations: { 'plans.list': { path: '/plans', fields: { price: ['amount'] } } },
      },
    });
    const profile = resolveProfile(
      'publishing',
      { extends: 'base', operations: { 'plans.list': { fields: { currency: ['cur'] } } } },
      texts,
    );
    expect(profile?.operations['plans.list']).toEqual({
      path: '/plans',
      fields: { price: ['amount'], currency: ['cur'] },
    });
  });

  it('tenants.json takes a profile by name or inline, and says where an inline one is wrong', () => {
    const ok = parseTenantsFile({
      tenants: [
        tenantInput({
          publishing: { baseUrl: 'https://x.test/api/v1', profile: 'publishing-alt' },
        }),
      ],
    });
    expect(ok.tenants[0]?.publishing.profile).toBe('publishing-alt');
    expect(() =>
      parseTenantsFile({
        tenants: [
          tenantInput({
            publishing: {
              baseUrl: 'https://x.test/api/v1',
              profile: { operations: { 'posts.list': { path: 'no-slash' } } },
            },
          }),
        ],
      }),
    ).toThrow(/tenant "gazette" \(tenants\[0\]\) → publishing\.profile/);
  });

  it('the generated JSON Schema knows the profile fields', () => {
    const schema = readFileSync('profile.schema.json', 'utf8');
    expect(schema).toContain('"posts.list"');
    expect(schema).toContain('"properties.availability"');
  });
});
