import { errorMessage } from '../content/records.ts';
import { randomBytes } from 'node:crypto';
import { classify } from '../failures/classify.ts';
import { PUBLISHING_OPERATIONS } from '../publishing/operations.ts';
import { publishingClient } from '../publishing/client.ts';
import type { Tenant } from '../tenants/schema.ts';
import { createUpstream } from '../upstream/runtime.ts';
import { resolveProfile } from './schema.ts';
import type { ProfileTexts } from './schema.ts';

/**
 * `npm run doctor -- <tenant> --writes`: the subscriber's account journey as the site makes it
 * (its own publishing client and the tenant's profile): register a throwaway account, sign in with
 * it, read it back, sign out. Only on request: it leaves that account on the API. Comments are
 * never written (they would show on the site); a tenant that books also has its lodging writes
 * proven on a test stay booked and cancelled at once (./doctor/lodging-writes.ts).
 */

export interface WriteReport {
  /** Publishing unless said (the lodging writes: ./doctor/lodging-writes.ts). */
  service?: 'publishing' | 'lodging' | undefined;
  operation: string;
  method: string;
  path: string;
  ok: boolean;
  /** What the site read (never the token), or why it could not. */
  detail: string;
}

export interface WriteCheckOptions {
  tenant: Tenant;
  profiles: ProfileTexts;
  /** The throwaway account's e-mail (default `masthead-doctor-<time>@example.com`). */
  email?: string;
}

export const failure = (error: unknown): string => {
  const message = errorMessage(error);
  return `${classify(error).kind}: ${message.length > 160 ? `${message.slice(0, 157)}…` : message}`;
};

export async function checkWrites(options: WriteCheckOptions): Promise<WriteReport[]> {
  const { tenant } = options;
  const profile = resolveProfile('publishing', tenant.publishing.profile, options.profiles);
  const anonymous = publishingClient({
    tenantId: tenant.id,
    baseUrl: tenant.publishing.baseUrl,
    upstream: createUpstream(),
    profile,
  });
  const where = (operation: 'auth.register' | 'auth.login' | 'auth.me' | 'auth.logout') => {
    const declared = PUBLISHING_OPERATIONS[operation];
    const op = profile?.operations[operation];
    return {
      operation,
      method: op?.method ?? ('method' in declared ? declared.method : 'GET'),
      path: op?.path ?? declared.path,
    };
  };
  const email = options.email ?? `masthead-doctor-${Date.now()}@example.com`;
  const password = randomBytes(18).toString('base64url');
  const reports: WriteReport[] = [];
  const step = async <T>(
    operation: 'auth.register' | 'auth.login' | 'auth.me' | 'auth.logout',
    run: () => Promise<T>,
    describe: (value: T) => string,
  ): Promise<T | undefined> => {
    try {
      const value = await run();
      reports.push({ ...where(operation), ok: true, detail: describe(value) });
      return value;
    } catch (error) {
      reports.push({ ...where(operation), ok: false, detail: failure(error) });
      return undefined;
    }
  };

  const registered = await step(
    'auth.register',
    () => anonymous.register({ name: 'Masthead Doctor', email, password }),
    () => `account ${email} made, token read`,
  );
  if (!registered) return reports;
  const signedIn = await step(
    'auth.login',
    () => anonymous.login(email, password),
    () => 'signed in with it, token read',
  );
  if (!signedIn) return reports;
  const user = anonymous.withToken(signedIn.token);
  await step(
    'auth.me',
    () => user.me({ fresh: true }),
    (me) => `id ${String(me.id)}, name ${me.name}`,
  );
  await step(
    'auth.logout',
    () => user.logout(),
    () => 'signed out',
  );
  return reports;
}

/** The write checks as terminal lines. */
export function writeLines(reports: readonly WriteReport[]): string[] {
  return [
    '',
    'Writes (--writes: a throwaway account was registered on the API):',
    ...reports.map(
      (r) =>
        `${r.ok ? '✓' : '✗'} ${r.service ?? 'publishing'} ${r.operation}: ${r.method} ${r.path} · ${r.detail}`,
    ),
  ];
}
