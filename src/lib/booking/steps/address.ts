/**
 * Where a booking page's forms and links go, and what they keep (`?tenant=`, an embed's `origin`
 * and `locale`): a GET form drops its action's query, so that travels as hidden fields.
 */
export function stepAddress(base: string, keep: Record<string, string> = {}) {
  const url = new URL(base, 'http://site.invalid');
  const kept = new URLSearchParams(url.search);
  for (const [name, value] of Object.entries(keep)) if (value) kept.set(name, value);
  return {
    /** The path GET forms go to. */
    action: url.pathname,
    /** Fields every GET form carries (the page's own query, kept). */
    hidden: [...kept],
    /** This page with `query` (a step's `?step=…`, an action's `?_action=…`) added to what is kept. */
    link(query: string): string {
      const params = new URLSearchParams(kept);
      for (const [name, value] of new URLSearchParams(query)) params.set(name, value);
      const text = params.toString();
      return text ? `${url.pathname}?${text}` : url.pathname;
    },
  };
}

export type StepAddress = ReturnType<typeof stepAddress>;

/** The header `<masthead-booking>` sends: the step is answered in place, not redirected (page.ts). */
export const STEP_HEADER = 'x-masthead-step';
