import { describe, expect, it } from 'vitest';
import { sourceAllowed } from '../../../src/lib/images/sources.ts';

const tenant = {
  publishing: {
    baseUrl: 'https://api.news.example/api/v1',
    mediaHosts: ['cdn.news.example', '*.img.example'],
  },
} as unknown as Parameters<typeof sourceAllowed>[0];

describe('image sources a tenant takes pictures from', () => {
  it.each([
    ['the API origin', 'https://api.news.example/media/a.jpg', true],
    ['a configured media host', 'https://cdn.news.example/a.jpg', true],
    ['a wildcard media host', 'http://eu.img.example/a.jpg', true],
    ['the API host on another port', 'https://api.news.example:8443/a.jpg', false],
    ['a foreign host', 'https://evil.example/a.jpg', false],
    ['the wildcard base itself', 'https://img.example/a.jpg', false],
    ['credentials in the URL', 'https://user:pw@cdn.news.example/a.jpg', false],
    ['another scheme', 'file:///etc/passwd', false],
    ['no URL', 'not a url', false],
  ])('%s', (_label, url, allowed) => {
    expect(sourceAllowed(tenant, url)).toBe(allowed);
  });
});
