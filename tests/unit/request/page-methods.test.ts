import { describe, expect, it } from 'vitest';
import { refusedMethod } from '../../../src/lib/request/page-methods.ts';

describe('methods a page takes', () => {
  it('refuses what a page does not take, naming GET and HEAD (and POST where it has a form)', () => {
    expect(refusedMethod('DELETE', '/')).toBe('GET, HEAD');
    expect(refusedMethod('OPTIONS', '/categories/[slug]')).toBe('GET, HEAD');
    expect(refusedMethod('POST', '/')).toBe('GET, HEAD');
    expect(refusedMethod('PUT', '/posts/[slug]')).toBe('GET, HEAD, POST');
    for (const method of ['GET', 'HEAD']) expect(refusedMethod(method, '/')).toBeNull();
    expect(refusedMethod('POST', '/posts/[slug]')).toBeNull();
  });

  it('leaves endpoints and error pages to answer for themselves', () => {
    for (const route of [
      '/rss.xml',
      '/api/booking/bookings',
      '/_actions/[...path]',
      '/_image',
      '/404',
    ])
      expect(refusedMethod('DELETE', route)).toBeNull();
  });
});
