import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Dialect } from '../lib/dialect.ts';
import type { AccessToken, Site, User } from './model.ts';

export type PubEnv = {
  Variables: { site: Site; user: User | null; token: AccessToken | null; dialect: Dialect };
};
export type PubApp = Hono<PubEnv>;
export type PubContext = Context<PubEnv>;

export const API_BASE = '/api/v1';

export const isStaff = (u: User | null): boolean =>
  !!u && (u.roles.includes('admin') || u.roles.includes('editor'));

/** Paid e-paper access: an active subscription, or staff. */
export const hasPaidAccess = (u: User | null): boolean =>
  !!u && (u.hasActiveSubscription || isStaff(u));
