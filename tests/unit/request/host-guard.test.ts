import { describe, expect, it } from 'vitest';
import { foreignWriteHost, foreignWriteRefusal } from '../../../src/lib/request/host-guard.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const tenant = buildTenant({
  id: 'harbour-times',
  hosts: ['harbour-times.localhost', 'harbourtimes.example.com', '*.harbour.example'],
});
const at = (origin: string) => ({ tenant, origin });

describe('writes only on the tenant’s own hosts', () => {
  it.each([
    // A foreign name (forged Host or X-Forwarded-Host, or a rebound DNS name) with ?tenant= or /<id>/.
    ['http://evil.example', 'evil.example'],
    ['https://harbourtimes.example.com.evil.example', 'harbourtimes.example.com.evil.example'],
    ['http://10.0.0.5:4321', '10.0.0.5'],
    ['https://harbour.example', 'harbour.example'],
    ['not a url', '(none)'],
  ])('a post on %s is refused', (origin, host) => {
    expect(foreignWriteHost('POST', at(origin))).toBe(host);
    expect(foreignWriteHost('delete', at(origin))).toBe(host);
  });

  it.each([
    'https://harbourtimes.example.com',
    'https://HarbourTimes.example.com.:443',
    'https://news.harbour.example',
    // This machine: development by ?tenant= and path prefix, the test suites' servers.
    'http://localhost:4321',
    'http://harbour-times.localhost:4321',
    'http://127.0.0.1:4321',
    'http://[::1]:4321',
  ])('a post on %s goes on', (origin) => {
    expect(foreignWriteHost('POST', at(origin))).toBeNull();
  });

  it('reads go on anywhere; no tenant, nothing to guard', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      expect(foreignWriteHost(method, at('http://evil.example'))).toBeNull();
    expect(foreignWriteHost('POST', null)).toBeNull();
  });

  it('answers 421 with a plain message, or JSON to a JSON caller', async () => {
    const form = foreignWriteRefusal(new Request('http://x/', { method: 'POST' }), 'evil.example');
    expect(form.status).toBe(421);
    expect(await form.text()).toContain('does not take posts sent to evil.example');
    const api = foreignWriteRefusal(
      new Request('http://x/', { method: 'POST', headers: { 'content-type': 'application/json' } }),
      'evil.example',
    );
    expect(api.status).toBe(421);
    expect(await api.json()).toMatchObject({ ok: false, error: { code: 'wrong_host' } });
    // A JSON caller as the body limit knows one too: by what it accepts.
    const accepting = foreignWriteRefusal(
      new Request('http://x/', { method: 'DELETE', headers: { accept: 'application/json' } }),
      'evil.example',
    );
    expect(accepting.headers.get('content-type')).toContain('application/json');
  });
});
