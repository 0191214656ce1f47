import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Dialect } from '../lib/dialect.ts';
import type { LodgingToken, LodgingUser } from './model.ts';

export type LodgeEnv = {
  Variables: { token: LodgingToken; user: LodgingUser; dialect: Dialect };
};
export type LodgeApp = Hono<LodgeEnv>;
export type LodgeContext = Context<LodgeEnv>;

export const API_BASE = '/api/v1';
