import { describe, expect, it } from 'vitest';
import { withUpstreamOverrides } from '../../../src/lib/tenants/upstream-override.ts';

const file = {
  tenants: [
    { id: 'a', publishing: { baseUrl: 'https://a.example/api/v1' } },
    {
      id: 'b',
      publishing: { baseUrl: 'https://b.example/api/v1' },
      lodging: { baseUrl: 'https://lodge.example/api/v1', propertyIds: [] },
    },
  ],
};

describe('withUpstreamOverrides', () => {
  it('leaves the file as it is without overrides', () => {
    expect(withUpstreamOverrides(file, {})).toBe(file);
  });

  it('points every tenant at the given APIs, keeping the other fields', () => {
    const result = withUpstreamOverrides(file, {
      PUBLISHING_BASE_URL: 'http://127.0.0.1:5711/api/v1',
      LODGING_BASE_URL: 'http://127.0.0.1:5712/api/v1',
    });
    expect(result).toEqual({
      tenants: [
        { id: 'a', publishing: { baseUrl: 'http://127.0.0.1:5711/api/v1' } },
        {
          id: 'b',
          publishing: { baseUrl: 'http://127.0.0.1:5711/api/v1' },
          lodging: { baseUrl: 'http://127.0.0.1:5712/api/v1', propertyIds: [] },
        },
      ],
    });
  });
});
