import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { showState } from '../../../src/lib/streams/badge.ts';

const { document } = new Window();

/** A stream card as a static copy renders it: the build's state, its words for every state. */
function card(): HTMLElement {
  const article = document.createElement('article');
  article.innerHTML = `<span class="badge started" data-label-live="Live" data-label-ended="Ended"
    data-label-starting="Starting soon"><span class="dot"></span><span data-stream-label>Started</span></span>`;
  article.dataset['status'] = 'live';
  document.body.append(article);
  return article as unknown as HTMLElement;
}

describe('a stream badge moved on in the browser', () => {
  it('says one state: its class, its words and the stream’s data-status', () => {
    const article = card();
    const badge = article.querySelector<HTMLElement>('.badge')!;
    showState(badge, 'ended');
    expect([...badge.classList]).toEqual(['badge', 'ended']);
    expect(badge.textContent).toBe('Ended');
    expect(badge.querySelector('.dot')).not.toBeNull();
    expect(article.dataset['status']).toBe('ended');
  });

  it('without a label element (the server’s badge), its words are the badge’s text', () => {
    const article = document.createElement('article') as unknown as HTMLElement;
    article.dataset['status'] = 'scheduled';
    article.innerHTML =
      '<span class="badge scheduled" data-label-starting="Starting soon">Upcoming</span>';
    const badge = article.querySelector<HTMLElement>('.badge')!;
    showState(badge, 'starting');
    expect(badge.textContent).toBe('Starting soon');
    expect(article.dataset['status']).toBe('starting');
  });
});
