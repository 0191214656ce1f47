import { en, type PluralMessage } from './messages/en.ts';

/** Every interface text key; English defines them. */
export type MessageKey = keyof typeof en;
export type Message = string | PluralMessage;
/** Another language: any subset of the English keys, same shape (a missing key falls back to English). */
export type Dictionary = {
  readonly [K in MessageKey]?: (typeof en)[K] extends string ? string : PluralMessage;
};

export const MESSAGE_KEYS = Object.keys(en) as MessageKey[];
