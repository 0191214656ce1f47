/**
 * The comment field's text kept in the tab (sessionStorage) until it is posted, so following any
 * other page and coming back does not lose it (progressive enhancement: without JavaScript the
 * server keeps what was typed across a failed post and across the form's "Log in" button only).
 * One draft per post page.
 */
export function keepDraft(field: HTMLTextAreaElement, posted: boolean): void {
  const key = `masthead-comment:${location.pathname}`;
  try {
    const kept = sessionStorage.getItem(key);
    if (posted) sessionStorage.removeItem(key);
    else if (kept && !field.value) {
      field.value = kept;
      // The count follows (char-count.ts listens to the same event).
      field.dispatchEvent(new Event('input'));
    }
    field.addEventListener('input', () => sessionStorage.setItem(key, field.value));
  } catch {
    // Storage off (private mode): nothing kept.
  }
}
