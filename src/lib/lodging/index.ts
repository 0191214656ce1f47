export { lodgingClient } from './client.ts';
export type { LodgingClient, LodgingClientOptions, PageParams, ReadOptions } from './client.ts';
export { lodgingAuth, clearLodgingTokens } from './auth.ts';
export type { LodgingAuth, LodgingCredentials } from './auth.ts';
export type * from './schema.ts';
