import { describe, expect, it } from 'vitest';
import { headersFile, securityHeaders, withPolicyMeta } from '../../../src/lib/static/headers.ts';

const POLICY = "script-src 'self' 'sha256-abc='; style-src 'self'; frame-ancestors 'none'";

describe('the live policy in a static copy', () => {
  it('goes first in <head>, without the directives a <meta> cannot carry', () => {
    const html = withPolicyMeta(
      '<!doctype html><html><head><title>x</title></head></html>',
      POLICY,
    );
    expect(html).toBe(
      `<!doctype html><html><head><meta http-equiv="content-security-policy" content="script-src 'self' 'sha256-abc='; style-src 'self'"><title>x</title></head></html>`,
    );
  });

  it('leaves a page without a policy as it is', () => {
    expect(withPolicyMeta('<head></head>', null)).toBe('<head></head>');
  });

  it('writes every security header per page in `_headers`', () => {
    const headers = new Headers({
      'content-security-policy': POLICY,
      'x-content-type-options': 'nosniff',
      'content-type': 'text/html',
    });
    expect(headersFile([{ path: '/plans', headers: securityHeaders(headers) }])).toBe(
      `/plans\n  content-security-policy: ${POLICY}\n  x-content-type-options: nosniff\n`,
    );
  });
});
