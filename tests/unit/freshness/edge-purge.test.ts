import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { purgeEdge } from '../../../src/lib/freshness/edge.ts';
import { forgetSettings } from '../../../src/lib/settings/settings.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

/** An edge behind TLS (EDGE_PURGE_URL=https://…, which the setting accepts), with a throwaway certificate. */
describe('purges sent to an https edge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'masthead-edge-tls-'));
  const seen: string[] = [];
  let edge: ReturnType<typeof createServer>;
  let port: number;
  const rejectUnauthorized = process.env['NODE_TLS_REJECT_UNAUTHORIZED'];

  beforeAll(async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    edge = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (req, res) => {
        seen.push(`${req.method} ${req.headers.host} ${req.url}`);
        res.end();
      },
    );
    await new Promise<void>((resolve) => edge.listen(0, '127.0.0.1', resolve));
    port = (edge.address() as AddressInfo).port;
    // The throwaway certificate is trusted for this test only.
    process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = '0';
    vi.stubEnv('EDGE_PURGE_URL', `https://127.0.0.1:${port}/_edge_purge`);
    forgetSettings();
  });

  afterAll(() => {
    if (rejectUnauthorized === undefined) delete process.env['NODE_TLS_REJECT_UNAUTHORIZED'];
    else process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = rejectUnauthorized;
    vi.unstubAllEnvs();
    forgetSettings();
    edge.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reach the edge: each address of the changed post, with the visitors’ Host', async () => {
    const tenant = buildTenant({ hosts: ['gazette.example.com'] });
    const purged = await purgeEdge(tenant, {
      tenant: tenant.id,
      at: Date.now(),
      comments: ['harbour-news'],
    });
    // One per encoding the edge keys on (br, gzip, none).
    expect(purged).toBe(3);
    expect(new Set(seen)).toEqual(
      new Set([`PURGE gazette.example.com:${port} /_edge_purge/posts/harbour-news`]),
    );
  });
});
