import { describe, expect, it } from 'vitest';
import { COMMENT_MAX, characterCount } from '../../../src/lib/comments/count.ts';
import {
  commentFormInput,
  mapValidationErrors,
  newCommentKey,
  readFormValues,
  validateComment,
} from '../../../src/lib/comments/form.ts';
import type { CommentFormValues } from '../../../src/lib/comments/form.ts';
import { english } from '../../fixtures/english.ts';

const guest: CommentFormValues = {
  content: 'Nice piece.',
  name: 'Gina Guest',
  email: 'gina@example.com',
  parentId: '',
  key: '',
};

describe('readFormValues', () => {
  it('keeps what was typed, normalises CRLF and ignores non-string fields', () => {
    expect(
      readFormValues({ content: 'a\r\nb', name: ' Gina ', email: 42, parent_id: ' 7 ' }),
    ).toEqual({ content: 'a\nb', name: ' Gina ', email: '', parentId: '7', key: '' });
  });

  it('keeps an idempotency key the site minted, and nothing else in its place', () => {
    const key = newCommentKey('harbour-news', 3);
    expect(readFormValues({ content: 'x', key }).key).toBe(key);
    expect(readFormValues({ content: 'x', key: 'short' }).key).toBe('');
    expect(readFormValues({ content: 'x', key: `${key}<script>` }).key).toBe('');
  });

  it('names the key by post and thread: the same page renders the same key, a grown thread a new one', () => {
    const key = newCommentKey('harbour-news', 3);
    expect(newCommentKey('harbour-news', 3)).toBe(key);
    expect(newCommentKey('harbour-news', 4)).not.toBe(key);
    expect(newCommentKey('ferry-news', 3)).not.toBe(key);
  });
});

describe('characterCount', () => {
  it('counts an emoji as one character and CRLF as one', () => {
    expect(characterCount('😀a\r\nb')).toBe(4);
  });

  it('counts what is stored: a trailing line break or spaces around the text are not counted', () => {
    expect(characterCount(' \r\nab\r\n')).toBe(2);
  });
});

describe('the length limit', () => {
  it('takes 2,000 characters with a trailing line break (a phone’s Enter), as the API stores them', () => {
    const content = `${'x'.repeat(COMMENT_MAX)}\n`;
    expect(validateComment({ ...guest, content }, false)).toMatchObject({
      ok: true,
      input: { content: 'x'.repeat(COMMENT_MAX) },
    });
    expect(validateComment({ ...guest, content: `${content}x` }, false).ok).toBe(false);
  });
});

describe('validateComment', () => {
  it('builds a guest comment for the API', () => {
    expect(
      english(validateComment({ ...guest, content: '  Hi  ', parentId: '12' }, false)),
    ).toEqual({
      ok: true,
      input: {
        content: 'Hi',
        parent_id: 12,
        author_name: 'Gina Guest',
        author_email: 'gina@example.com',
      },
    });
  });

  it.each(['josé@example.com', 'user@bücher.de', 'иван@пример.рф'])(
    'sends a guest comment from %s (letters of any script, as the API accepts them)',
    (email) => {
      const result = validateComment({ ...guest, email }, false);
      expect(result).toMatchObject({ ok: true, input: { author_email: email } });
    },
  );

  it('sends a guest’s o’brien@example.com (a phone’s curly apostrophe) as the mailbox meant', () => {
    const result = validateComment({ ...guest, email: 'o’brien@example.com' }, false);
    expect(result).toMatchObject({ ok: true, input: { author_email: "o'brien@example.com" } });
  });

  it('sends neither name nor e-mail for a signed-in visitor, and does not require them', () => {
    expect(english(validateComment({ ...guest, name: '', email: 'not-an-email' }, true))).toEqual({
      ok: true,
      input: { content: 'Nice piece.' },
    });
  });

  it.each<[string, Partial<CommentFormValues>, Record<string, string[]>]>([
    ['empty comment', { content: '' }, { content: ['Enter your comment.'] }],
    [
      'only spaces',
      { content: '  \n \u200b ' },
      { content: ['Your comment is only spaces. Write something before posting.'] },
    ],
    [
      'too long',
      { content: 'x'.repeat(COMMENT_MAX + 5) },
      {
        content: [
          'Your comment is 2,005 characters long. Shorten it to 2,000 characters or fewer.',
        ],
      },
    ],
    ['missing name', { name: ' ' }, { name: ['Enter your name, or sign in to comment.'] }],
    [
      'a name of invisible characters',
      { name: ' \u200b\u2060\u202e ' },
      { name: ['Enter your name, or sign in to comment.'] },
    ],
    [
      'a comment of direction controls',
      { content: '\u202e\u2066' },
      { content: ['Your comment is only spaces. Write something before posting.'] },
    ],
    [
      'long name',
      { name: 'n'.repeat(101) },
      { name: ['Your name must be 100 characters or fewer.'] },
    ],
    [
      'missing e-mail',
      { email: '' },
      { email: ['Enter your e-mail address, or sign in to comment.'] },
    ],
    [
      'bad e-mail',
      { email: 'gina@' },
      { email: ['Enter an e-mail address in the correct format, like name@example.com.'] },
    ],
  ])('refuses a guest comment: %s', (_label, change, fields) => {
    expect(english(validateComment({ ...guest, ...change }, false))).toEqual({ ok: false, fields });
  });

  it('accepts exactly the limit (emoji count as one)', () => {
    expect(
      english(validateComment({ ...guest, content: '😀'.repeat(COMMENT_MAX) }, false).ok),
    ).toBe(true);
  });
});

describe('mapValidationErrors', () => {
  it('maps API fields to form fields (known rules in the reader words), flags a refused parent and keeps the rest', () => {
    expect(
      english(
        mapValidationErrors({
          content: ['The content field must not be greater than 2000 characters.', 'second'],
          author_email: ['The author email field is required.'],
          parent_id: ['The selected parent id is invalid.'],
          captcha: ['Solve the captcha.'],
          author_name: [],
        }),
      ),
    ).toEqual({
      fields: {
        content: ['The content field must not be greater than 2000 characters.'],
        email: ['Enter your e-mail address, or sign in to comment.'],
      },
      parentRejected: true,
      other: ['Solve the captcha.'],
    });
  });
});

describe('commentFormInput: the post a comment goes to', () => {
  // Every slug the post page serves (its route takes any one segment): the form must post there too.
  it.each(['welcome-to-our-new-website', 'café-crème', 'v2.0-release', '100%-sure', '東京-report'])(
    'takes %s',
    (post) => {
      expect(commentFormInput.safeParse({ post, content: 'x' }).success).toBe(true);
    },
  );

  it('refuses no post at all', () => {
    expect(commentFormInput.safeParse({ post: '', content: 'x' }).success).toBe(false);
  });
});
