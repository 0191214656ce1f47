/**
 * The comment field's text kept in the tab (sessionStorage) until it is posted, so following any
 * other page and coming back does not lose it (progressive enhancement: without JavaScript the
 * server keeps what was typed across a failed post and across the form's "Log in" button only).
 * One draft per form: the post page's new comment, and its reply to each comment.
 */
export function keepDraft(field: HTMLTextAreaElement, posted: boolean): void {
  const keyOf = (parentId: string) =>
    `masthead-comment:${location.pathname}${parentId ? `?reply=${parentId}` : ''}`;
  const parent = field.form?.querySelector<HTMLInputElement>('input[name="parent_id"]');
  const key = keyOf(parent?.value ?? '');
  try {
    // Posted: the result page keeps the `?reply=` it was sent from, and shows a new comment's form.
    if (posted)
      sessionStorage.removeItem(keyOf(new URLSearchParams(location.search).get('reply') ?? ''));
    const kept = sessionStorage.getItem(key);
    if (kept && !field.value) {
      field.value = kept;
      // The count follows (char-count.ts listens to the same event).
      field.dispatchEvent(new Event('input'));
    }
    field.addEventListener('input', () => sessionStorage.setItem(key, field.value));
  } catch {
    // Storage off (private mode): nothing kept.
  }
}
