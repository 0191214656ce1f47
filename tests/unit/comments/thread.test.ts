import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../src/lib/publishing/schema.ts';
import {
  buildThread,
  countComments,
  findComment,
  paragraphs,
  parseReplyId,
} from '../../../src/lib/comments/thread.ts';
import type { ThreadNode } from '../../../src/lib/comments/thread.ts';

function comment(id: number, createdAt: string, extra: Partial<Comment> = {}): Comment {
  return {
    id,
    content: `Comment ${id}`,
    author_name: `Author ${id}`,
    created_at: createdAt,
    status: 'approved',
    parent_id: null,
    replies: [],
    ...extra,
  };
}

const shape = (nodes: ThreadNode[]): unknown =>
  nodes.map((n) => (n.replies.length ? { [n.id]: shape(n.replies) } : n.id));

describe('buildThread', () => {
  it('keeps the nested replies of the contract, oldest first at every level, with depths', () => {
    const thread = buildThread([
      comment(4, '2026-11-20T05:00:00+00:00', {
        replies: [
          comment(6, '2026-11-20T09:00:00+00:00', { parent_id: 4 }),
          comment(5, '2026-11-20T06:00:00+00:00', {
            parent_id: 4,
            replies: [comment(9, '2026-11-20T07:00:00+00:00', { parent_id: 5 })],
          }),
        ],
      }),
      comment(1, '2026-11-20T03:00:00+00:00'),
    ]);
    expect(shape(thread)).toEqual(['1', { '4': [{ '5': ['9'] }, '6'] }]);
    expect(findComment(thread, '9')?.depth).toBe(2);
    expect(countComments(thread)).toBe(5);
  });

  it('nests replies sent flat with parent_id, and keeps orphans at the top level', () => {
    const thread = buildThread([
      comment(1, '2026-11-20T03:00:00+00:00'),
      comment(2, '2026-11-20T04:00:00+00:00', { parent_id: 1 }),
      comment(3, '2026-11-20T05:00:00+00:00', { parent_id: 2 }),
      comment(8, '2026-11-20T01:00:00+00:00', { parent_id: 77 }),
    ]);
    expect(shape(thread)).toEqual(['8', { '1': [{ '2': ['3'] }] }]);
  });

  it('drops duplicates and survives a parent_id cycle', () => {
    const thread = buildThread([
      comment(1, '2026-11-20T03:00:00+00:00', { parent_id: 2 }),
      comment(2, '2026-11-20T04:00:00+00:00', { parent_id: 1 }),
      comment(1, '2026-11-20T03:00:00+00:00'),
    ]);
    expect(countComments(thread)).toBe(2);
  });

  it.each([
    ['same time: by id', '2026-11-20T03:00:00+00:00', '2026-11-20T03:00:00+00:00', ['2', '10']],
    ['unknown time: by id', '', '', ['2', '10']],
    [
      'offsets compared as instants',
      '2026-11-20T05:00:00+02:00',
      '2026-11-20T04:00:00+00:00',
      ['2', '10'],
    ],
  ])('sorts %s', (_label, first, second, expected) => {
    const thread = buildThread([
      comment(10, second, { created_at: second || null }),
      comment(2, first, { created_at: first || null }),
    ]);
    expect(thread.map((n) => n.id)).toEqual(expected);
  });

  it('orders a time without offset (UTC, as pages read it) among times with one, whatever the server’s zone', () => {
    const saved = process.env['TZ'];
    process.env['TZ'] = 'America/New_York';
    try {
      // 10:00 UTC (no offset) was made before 12:00 UTC; read as New York time it would be 15:00.
      const thread = buildThread([
        comment(1, '2026-11-27T12:00:00+00:00'),
        comment(2, '2026-11-27 10:00:00'),
      ]);
      expect(shape(thread)).toEqual(['2', '1']);
    } finally {
      if (saved === undefined) delete process.env['TZ'];
      else process.env['TZ'] = saved;
    }
  });

  it('leaves the name of an author who left none blank, for the page to say in its language', () => {
    expect(
      buildThread([comment(1, '2026-11-20T03:00:00Z', { author_name: ' ' })])[0]?.authorName,
    ).toBe('');
  });
  it('drops a name’s bidi controls: an override turned "Replying to <name> · Cancel reply" around', () => {
    const [node] = buildThread([
      comment(1, '2026-11-20T10:00:00Z', { author_name: '\u202eNosliw Mot\u202c' }),
    ]);
    expect(node?.authorName).toBe('Nosliw Mot');
    // Right-to-left names stay as written.
    const [rtl] = buildThread([comment(2, '2026-11-20T10:00:00Z', { author_name: 'נועה כהן' })]);
    expect(rtl?.authorName).toBe('נועה כהן');
  });
});

describe('findComment', () => {
  const thread = buildThread([
    comment(1, '2026-11-20T03:00:00Z', {
      replies: [comment(2, '2026-11-20T04:00:00Z', { parent_id: 1 })],
    }),
  ]);
  it.each([
    ['1', '1'],
    ['2', '2'],
    ['3', null],
    [null, null],
  ])('finds %s', (id, expected) => {
    expect(findComment(thread, id)?.id ?? null).toBe(expected);
  });
});

describe('parseReplyId', () => {
  it.each([
    ['12', '12'],
    [' 7 ', '7'],
    ['0', null],
    ['012', null],
    ['-1', null],
    ['1e3', null],
    ['abc', null],
    ['', null],
    [null, null],
    ['12345678901234567890', null],
  ])('%j → %j', (value, expected) => {
    expect(parseReplyId(value)).toBe(expected);
  });
});

describe('paragraphs', () => {
  it('splits on blank lines and keeps single line breaks', () => {
    expect(paragraphs('One\r\ntwo\r\n\r\n\r\nThree\n\n  \n')).toEqual([['One', 'two'], ['Three']]);
  });
});
