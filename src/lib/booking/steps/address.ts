/**
 * Where a booking page's forms and links go, and what they keep (`?tenant=`, an embed's `origin`
 * and `locale`): a GET form drops its action's query, so that travels as hidden fields.
 */
export interface StepAddress {
  /** The path GET forms go to. */
  action: string;
  /** Fields every GET form carries (the page's own query, kept). */
  hidden: [name: string, value: string][];
  /** A GET address of this page with `query` (a step's `?step=…` query) added to what is kept. */
  link: (query: string) => string;
  /** A POST address of this page for an action's `?_action=…` query. */
  post: (actionQuery: string) => string;
}

export function stepAddress(base: string, keep: Record<string, string> = {}): StepAddress {
  const url = new URL(base, 'http://site.invalid');
  const kept = new URLSearchParams(url.search);
  for (const [name, value] of Object.entries(keep)) if (value) kept.set(name, value);
  const join = (query: string) => {
    const params = new URLSearchParams(kept);
    for (const [name, value] of new URLSearchParams(query)) params.set(name, value);
    const text = params.toString();
    return text ? `${url.pathname}?${text}` : url.pathname;
  };
  return { action: url.pathname, hidden: [...kept], link: join, post: join };
}
