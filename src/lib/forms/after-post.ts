import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { PRIVATE, uncachedRedirect } from '../delivery/policy.ts';
import { deleteIfKept, dropIfEmpty } from '../delivery/session-store.ts';
import { safeNext, signInPath } from '../auth/next.ts';

/**
 * POST → 303 → GET for every form, as Astro's Actions guide does it: the middleware (./middleware.ts)
 * runs the action of a post to `?_action=<name>`, keeps its result and what was typed in the session
 * under a fresh id and answers `303` to the same page with `?posted=<id>`; that GET takes the result
 * (once) and hands it to `Astro.getActionResult()`. A reload or Back repeats only the GET; a taken
 * result redirects to the page without `posted`, so `?posted=` never reaches a shared cache.
 */

/** The landing address's parameter: the id of the kept result. */
export const SENT_PARAM = 'posted';

/**
 * A submit button of this name signs in first (its value: the site path to come back to): the
 * action is not run, what was typed is kept, and the login page comes back to that path with
 * `posted`, which puts the text back into the form. Without JavaScript too. The text is kept for
 * the session's life, however slow the login, and shown again on a reload, until a form is sent
 * from that page (or its "Log in" pressed again).
 */
export const SIGN_IN_FIELD = '_signin';

/** Not carried to the landing: the action's own (`actions.x.queryString`), an id, `?tenant=` (`href`'s). */
const NOT_LANDED = new Set(['_action', SENT_PARAM, 'tenant']);

// The booking steps keep their own redirect for now (src/lib/booking/steps/page.ts).
const REDIRECTED_ACTIONS: ReadonlySet<string> = new Set([
  'postComment',
  'login',
  'register',
  'logout',
  'findStay',
  'cancelStay',
]);

/** How long a kept result waits for its GET (a slow connection, a phone put away mid-redirect). */
const KEPT_SECONDS = 10 * 60;

/** Typed values kept per field, and fields kept per form: a form is small, a hostile post is not. */
const MAX_VALUE_LENGTH = 4000;
const MAX_FIELDS = 30;

/** What the session holds between the POST and its GET; `readKept` reads back only what this wrote. */
const KeptSchema = z.object({
  /** The action's name (`getActionResult(actions.<name>)` finds it under this). */
  action: z.string().refine((name) => REDIRECTED_ACTIONS.has(name)),
  /** `serializeActionResult(result)`: JSON-safe, read back by Astro. */
  result: z.looseObject({ type: z.string() }),
  /** What was typed (never a password), to put back into the form. */
  values: z
    .record(z.string(), z.unknown())
    .catch({})
    .transform((values) =>
      Object.fromEntries(
        Object.entries(values).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      ),
    ),
});
export type KeptResult = z.output<typeof KeptSchema>;

/** What was typed before "Log in" (`SIGN_IN_FIELD`): one per page, under the id its address names. */
const DraftSchema = KeptSchema.extend({ id: z.string() });
type Draft = z.output<typeof DraftSchema>;

/** What was typed into the form a landing GET answers, by the request's locals. */
const KEPT_VALUES = new WeakMap<object, Readonly<Record<string, string>>>();

/** What was typed into the form whose result this GET shows (never a password), else undefined. */
export function keptFormValues(locals: object): Readonly<Record<string, string>> | undefined {
  return KEPT_VALUES.get(locals);
}

const keptKey = (id: string): string => `form-result:${id}`;
const draftKey = (pathname: string): string => `form-draft:${pathname}`;

/** The posted form's text fields, without passwords, the action's own field or anything huge. */
export function keptValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of form.entries()) {
    if (typeof value !== 'string' || /password/i.test(name) || name.startsWith('_')) continue;
    if (name in values) continue;
    if (++count > MAX_FIELDS) break;
    values[name] = value.slice(0, MAX_VALUE_LENGTH);
  }
  return values;
}

/** A kept result as this module wrote it, else undefined (another version's, or tampered). */
export function readKept(stored: unknown): KeptResult | undefined {
  return KeptSchema.safeParse(stored).data;
}

/**
 * The page a post is answered with: the same path inside the tenant (`pathname`, before any prefix),
 * its query without the action's parameters, and `posted=<id>` (or no `posted` for the clean address).
 * `href` adds the tenant's path prefix or preview query.
 */
export function landingAddress(
  pathname: string,
  search: URLSearchParams,
  id: string | null,
  href: (path: string) => string,
): string {
  const query = new URLSearchParams([...search].filter(([name]) => !NOT_LANDED.has(name)));
  if (id) query.set(SENT_PARAM, id);
  const text = query.toString();
  // One leading slash: `//host` would be another site to the browser.
  const path = `/${pathname.replace(/^[/\\]+/, '')}`;
  return href(text ? `${path}?${text}` : path);
}

/** What of Astro's `getActionContext(context)` the rule uses. */
export interface ActionsOfRequest {
  action?:
    { calledFrom: 'rpc' | 'form'; name: string; handler: () => Promise<unknown> } | undefined;
  setActionResult(name: string, result: KeptResult['result']): void;
  serializeActionResult(result: unknown): KeptResult['result'];
}

/** What of the request's context the rule uses (Astro's `APIContext` has all of it). */
export interface FormRequest {
  request: Request;
  url: URL;
  locals: App.Locals;
  session?:
    | {
        get(key: string): Promise<unknown>;
        has(key: string): Promise<boolean>;
        set(key: string, value: KeptResult | Draft, options?: { ttl?: number }): void;
        delete(key: string): void;
        keys(): Promise<Iterator<string>>;
        destroy(): void;
      }
    | undefined;
  /** Whether the session's store takes the kept result now (./middleware.ts); yes when absent. */
  canKeep?: (() => Promise<boolean>) | undefined;
}

/** The rule itself (./middleware.ts gives it Astro's context). */
export async function answerForm(
  context: FormRequest,
  actions: ActionsOfRequest,
  next: () => Promise<Response>,
): Promise<Response> {
  const { action } = actions;
  const { session, locals, url } = context;
  const pathname = locals.tenantMatch.pathname;
  // Personal whatever the page says: it shows this visitor's result and typed text.
  const show = async (kept: KeptResult) => {
    actions.setActionResult(kept.action, kept.result);
    KEPT_VALUES.set(locals, kept.values);
    const response = await next();
    response.headers.set('Cache-Control', PRIVATE);
    return response;
  };

  if (action?.calledFrom === 'form' && REDIRECTED_ACTIONS.has(action.name) && session) {
    const form = await context.request
      .clone()
      .formData()
      .catch(() => new FormData());
    const signIn = form.get(SIGN_IN_FIELD);
    const result = typeof signIn === 'string' ? { data: undefined } : await action.handler();
    const kept: KeptResult = {
      action: action.name,
      result: actions.serializeActionResult(result),
      values: keptValues(form),
    };
    if (context.canKeep && !(await context.canKeep())) {
      // The session's store is away (Redis down): a redirect would lose the result and the typed
      // text, so the page answers the post itself, privately. Sending it again is safe: the
      // action refused it (a write that needs the store says "try again shortly") or its key
      // makes it once.
      return show(kept);
    }
    // Unguessable and URL-safe: 16 characters.
    const id = randomBytes(12).toString('base64url');
    if (typeof signIn === 'string') {
      session.set(draftKey(pathname), { ...kept, id });
      const back = new URL(safeNext(signIn, pathname), url);
      back.searchParams.set(SENT_PARAM, id);
      return uncachedRedirect(
        303,
        locals.href(signInPath(`${back.pathname}${back.search}${back.hash}`)),
      );
    }
    // Sent: the text kept from before a login is not offered again (Back, a reload).
    await deleteIfKept(session, draftKey(pathname));
    // The session as it is after the action (a sign-in gives it a new id: the result goes there).
    session.set(keptKey(id), kept, { ttl: KEPT_SECONDS });
    return uncachedRedirect(303, landingAddress(pathname, url.searchParams, id, locals.href));
  }

  const sent = url.searchParams.get(SENT_PARAM);
  if (context.request.method !== 'GET' || sent === null) return next();
  // Anything but an id as written above is not looked up.
  const id = /^[\w-]{16}$/.test(sent) ? sent : null;
  const result = id && session ? readKept(await session.get(keptKey(id))) : undefined;
  const draft =
    id && session && !result
      ? DraftSchema.safeParse(await session.get(draftKey(pathname))).data
      : undefined;
  const kept = result ?? (draft?.id === id ? draft : undefined);
  // Taken already (a reload, Back), expired, or never ours: the page itself, without the id.
  if (!id || !kept || !session) {
    return uncachedRedirect(303, landingAddress(pathname, url.searchParams, null, locals.href));
  }
  // A result is shown once; a draft until its form is sent.
  if (result) session.delete(keptKey(id));
  const response = await show(kept);
  await dropIfEmpty(session);
  return response;
}
