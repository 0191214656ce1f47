import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { uncachedRedirect } from '../delivery/policy.ts';
import { keptFormValues } from '../forms/after-post.ts';
import { cachePrivate } from '../render/page-respond.ts';
import { fieldNames, type AccountFormName } from './forms.ts';
import { formState } from './failures.ts';
import { safeNext, signInPath } from './next.ts';
import { getSignedIn } from './session.ts';

type PageAstro = Pick<AstroGlobal, 'locals' | 'url' | 'session' | 'response' | 'getActionResult'>;

/**
 * The login and register pages: a successful submit, or a visitor signed in already, goes on to
 * `next`; otherwise that `next`, `props` for `components/account/AccountForm.astro` and whether
 * this GET shows a submit's result.
 */
export async function accountFormPage(Astro: PageAstro, form: AccountFormName) {
  const { tenant, href, i18n } = Astro.locals;
  cachePrivate(Astro);
  const result = Astro.getActionResult(actions[form]);
  if (result?.data) {
    const signedIn = uncachedRedirect(303, href(result.data.next));
    // A guest's copy of a page (public, kept in the back/forward cache) must not come back on Back
    // saying "Log in": the browser drops what it kept of this site (its signed-in pages are no-store).
    signedIn.headers.set('Clear-Site-Data', '"cache"');
    return signedIn;
  }
  // Passwords among these are never kept (`submittedValues`).
  const state = formState(keptFormValues(Astro.locals), result?.error, fieldNames(form), i18n);
  // In the address, also of the form's result page: a reload once its result is taken keeps it.
  const next = safeNext(Astro.url.searchParams.get('next'));
  if (!result && (await getSignedIn(Astro.session, tenant)))
    return uncachedRedirect(302, href(next));
  // The action reads `next` from this address (../../actions/account.ts).
  const action = href(`${signInPath(next, form)}&${actions[form].queryString.slice(1)}`);
  return { posted: Boolean(result), next, props: { form, action, state } };
}
