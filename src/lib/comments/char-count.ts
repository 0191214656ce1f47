import { COMMENT_MAX, characterCount } from './count.ts';
import { sayerOf, type Say } from '../i18n/say.ts';

/**
 * The comment field's live character count (progressive enhancement): without JavaScript the server
 * shows the count after a submit. The visible hint follows every keystroke; screen readers hear the
 * count once typing pauses, as GOV.UK's character count does, not on every key.
 */

/** The hint for `text`: "120 of 2,000 characters." plus "5 characters too many." past the limit. */
export function countText(say: Say, text: string, max = COMMENT_MAX): string {
  const count = characterCount(text);
  const shown = say('count', { count, max });
  return count > max ? `${shown} ${say('over', { count: count - max })}` : shown;
}

const ANNOUNCE_AFTER_MS = 1000;

export function enhanceCount(field: HTMLTextAreaElement): void {
  const say = sayerOf(field, 'count');
  const hint = document.getElementById(`${field.id}-hint`);
  const live = field.form?.querySelector<HTMLElement>('[data-count-live]');
  if (!hint) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  field.addEventListener('input', () => {
    const text = countText(say, field.value);
    hint.textContent = text;
    hint.classList.toggle('over', characterCount(field.value) > COMMENT_MAX);
    clearTimeout(timer);
    if (live) timer = setTimeout(() => (live.textContent = text), ANNOUNCE_AFTER_MS);
  });
}
