import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../booking/domain/failures.ts';
import { uncachedJson } from '../delivery/policy.ts';
import type { I18n, MessageKey } from '../i18n/index.ts';
import { isUnreadablePath, MAX_URL_LENGTH } from './clean-url.ts';

/**
 * What the edge refuses before anything runs: an address no page takes (too long, a broken escape,
 * or escaped twice), a body refused from its headers (above the limit, streamed without a length, on a method that
 * takes none, or not a form to an action), a form posted from another site: decided before the tenant is known; a method the page
 * does not take, once its route is. Answered once the tenant is known, in its
 * language: the tenant's page for a browser (src/pages/400.astro), the booking API's error shape
 * for a JSON caller (`edgeRefusalJson`), plain English without a tenant.
 */
export type EdgeRefusal =
  | 'too-long'
  | 'unreadable-path'
  | 'cross-site'
  | 'too-large'
  | 'length-required'
  | 'no-body-allowed'
  | 'not-a-form'
  | 'method';

interface RefusalText {
  status: number;
  code: ErrorCode;
  heading: MessageKey;
  text: MessageKey;
  plainHeading: string;
  plainText: string;
  /** The body was never read: the connection closes after the answer (`lingerBeforeClosing`). */
  close?: boolean;
}

const BODY: Omit<RefusalText, 'status'> = {
  code: 'bad_request',
  heading: 'error.bodyRefused',
  text: 'error.bodyRefusedText',
  plainHeading: 'Not sent',
  plainText: 'Your browser sent this in a way this site does not take, so nothing was sent.',
  close: true,
};

export const REFUSALS: Record<EdgeRefusal, RefusalText> = {
  'too-long': {
    status: 414,
    code: 'too_long',
    heading: 'error.tooLong',
    text: 'error.tooLongText',
    plainHeading: 'Address too long',
    plainText: 'This address is too long.',
  },
  'unreadable-path': {
    status: 400,
    code: 'bad_request',
    heading: 'error.badAddress',
    text: 'error.badAddressText',
    plainHeading: 'Bad request',
    plainText: 'This address could not be read.',
  },
  'cross-site': {
    status: 403,
    code: 'forbidden',
    heading: 'error.crossSite',
    text: 'error.crossSiteText',
    plainHeading: 'Form not sent',
    plainText: 'This form was sent from another site, so nothing was sent.',
  },
  'too-large': {
    status: 413,
    code: 'too_large',
    heading: 'error.tooLarge',
    text: 'error.tooLargeText',
    plainHeading: 'Form too long',
    plainText:
      'What you entered was too long to send, so nothing was sent. Please shorten it and try again.',
    close: true,
  },
  'length-required': { status: 411, ...BODY },
  'no-body-allowed': { status: 400, ...BODY },
  // A body of another type than a form to an action (./body-limit.ts `isNonFormActionBody`).
  'not-a-form': { status: 415, ...BODY },
  // A method the page does not take (./page-methods.ts): its answer names those it does (`Allow`).
  method: { status: 405, ...BODY, code: 'method_not_allowed' },
};

/** The address as sent (`context.url` has its path decoded already) refused, or `undefined`. */
export function urlRefusal(sent: string): EdgeRefusal | undefined {
  // A short address without escapes (most requests) is neither, and is not parsed again.
  if (sent.length <= MAX_URL_LENGTH && !sent.includes('%')) return undefined;
  const { pathname, search } = new URL(sent);
  if (pathname.length + search.length > MAX_URL_LENGTH) return 'too-long';
  // A broken escape; or one Astro decodes twice (`%252E` would reach a page as `.`).
  return isUnreadablePath(pathname) ? 'unreadable-path' : undefined;
}

/** A JSON caller's answer: the booking API's error shape (`{ ok: false, error }`), in `i18n`'s language. */
export function edgeRefusalJson(refusal: EdgeRefusal, i18n: Pick<I18n, 't'>): Response {
  const { status, code, text, close } = REFUSALS[refusal];
  const body = { ok: false, error: { code, message: i18n.t(text) } };
  return uncachedJson(status, body, close ? { Connection: 'close' } : {});
}

/**
 * The request the refusal page renders for: a GET of `/400` with the visitor's headers (cookies,
 * language) and none of the body's, which is never read (`lingerBeforeClosing` drops it).
 */
export function refusalPageRequest(request: Request, url: URL): Request {
  const headers = new Headers(request.headers);
  for (const name of ['content-length', 'content-type', 'transfer-encoding']) headers.delete(name);
  return new Request(new URL('/400', url), { headers });
}

/**
 * A lingering close, as nginx makes one: after an answer that closes the connection while the body
 * still arrives (a refused upload), what comes is read and dropped for up to 2 s, so the client
 * reads the answer instead of a reset. For every Node server in the process, set up at start-up.
 */
export function lingerBeforeClosing(): void {
  subscribe('http.server.response.finish', (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    // Node calls `destroySoon` right after this for an answer that closes the connection.
    if (!request.complete)
      socket.destroySoon = () => {
        socket.end();
        setTimeout(() => socket.destroy(), 2_000).unref();
      };
  });
}
