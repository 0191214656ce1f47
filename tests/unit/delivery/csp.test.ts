import { createHash } from 'node:crypto';
import load from 'astro/runtime/client/load.prebuilt.js';
import { describe, expect, it } from 'vitest';
import { trimPolicy, withoutUnusedHashes } from '../../../src/lib/delivery/csp.ts';

const hash = (content: string) =>
  `'sha256-${createHash('sha256').update(content).digest('base64')}'`;

describe('the page policy', () => {
  it("drops the hashes of Astro's hydration directives and keeps every other source", () => {
    const theme = hash('body{color:red}');
    const search = hash('startSearch()');
    const policy = `script-src 'self' ${hash(load)} ${search}; style-src 'self' ${theme};frame-ancestors 'none';`;
    expect(withoutUnusedHashes(policy)).toBe(
      `script-src 'self' ${search}; style-src 'self' ${theme};frame-ancestors 'none';`,
    );
  });

  it('leaves a response without a policy alone', () => {
    const headers = new Headers({ 'Content-Type': 'text/html' });
    trimPolicy(headers);
    expect(headers.has('Content-Security-Policy')).toBe(false);
  });
});
