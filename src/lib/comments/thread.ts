import type { Comment } from '../publishing/schema.ts';
import { readDate } from '../i18n/format.ts';
import { memo } from '../memo.ts';
import { withoutBidiControls } from '../content/escape.ts';
import { normaliseText } from './count.ts';

/** One comment ready to render: replies sorted oldest first, `depth` 0 for top-level comments. */
export interface ThreadNode {
  id: string;
  /** '' when the API gave no name: the page says "Anonymous" in the reader's language. */
  authorName: string;
  content: string;
  createdAt: string | null;
  depth: number;
  replies: ThreadNode[];
}

/** When a comment was made, read as pages show it (a time without offset is UTC); NaN when unknown. */
const madeAt = (node: ThreadNode) => readDate(node.createdAt)?.date.getTime() ?? Number.NaN;

const byOldest = (a: ThreadNode, b: ThreadNode): number => {
  const [at, bt] = [madeAt(a), madeAt(b)];
  if (at !== bt && !Number.isNaN(at) && !Number.isNaN(bt)) return at - bt;
  // Same or unknown time: ids grow with creation on the API, so compare them numerically when possible.
  const an = Number(a.id);
  const bn = Number(b.id);
  if (Number.isFinite(an) && Number.isFinite(bn)) return an - bn;
  return a.id.localeCompare(b.id);
};

/**
 * Turns the API's comments into a thread. The contract nests approved `replies`; an upstream that
 * sends replies flat (with `parent_id`) is nested here too. Duplicates are dropped, every level is
 * sorted oldest first, and a reply whose parent is missing stays at the top level rather than vanishing.
 */
export function buildThread(comments: readonly Comment[]): ThreadNode[] {
  const nodes = new Map<string, ThreadNode>();
  const parents = new Map<string, string | null>();

  const visit = (comment: Comment, nestedUnder: string | null): void => {
    const id = String(comment.id);
    if (nodes.has(id)) return;
    nodes.set(id, {
      id,
      // A name's override turned the form's "Replying to <name> · Cancel reply" around.
      authorName: withoutBidiControls(comment.author_name).trim(),
      content: comment.content,
      createdAt: comment.created_at ?? null,
      depth: 0,
      replies: [],
    });
    const declared = comment.parent_id ?? null;
    parents.set(id, nestedUnder ?? (declared === null ? null : String(declared)));
    for (const reply of comment.replies) visit(reply, id);
  };
  for (const comment of comments) visit(comment, null);

  const roots: ThreadNode[] = [];
  // In the order first seen (a Map keeps it); a node is never its own parent (`isAncestor`).
  for (const [id, node] of nodes) {
    const parentId = parents.get(id) ?? null;
    const parent = parentId === null ? undefined : nodes.get(parentId);
    if (parent && !isAncestor(node.id, parentId, parents)) parent.replies.push(node);
    else roots.push(node);
  }

  const finish = (list: ThreadNode[], depth: number): ThreadNode[] => {
    list.sort(byOldest);
    for (const node of list) {
      node.depth = depth;
      finish(node.replies, depth + 1);
    }
    return list;
  };
  return finish(roots, 0);
}

/** True when `candidate` is `start` or one of its ancestors (guards against parent_id cycles). */
function isAncestor(
  candidate: string,
  start: string | null,
  parents: ReadonlyMap<string, string | null>,
): boolean {
  const seen = new Set<string>();
  let current = start;
  while (current !== null && !seen.has(current)) {
    if (current === candidate) return true;
    seen.add(current);
    current = parents.get(current) ?? null;
  }
  return false;
}

export function findComment(thread: readonly ThreadNode[], id: string | null): ThreadNode | null {
  if (id === null) return null;
  for (const node of thread) {
    if (node.id === id) return node;
    const found = findComment(node.replies, id);
    if (found) return found;
  }
  return null;
}

export function countComments(thread: readonly ThreadNode[]): number {
  return thread.reduce((sum, node) => sum + 1 + countComments(node.replies), 0);
}

/** A `?reply=` value as a comment id: a positive integer without sign or leading zeros, else null. */
export function parseReplyId(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return /^[1-9]\d{0,15}$/.test(trimmed) ? trimmed : null;
}

/** Paragraphs of a plain-text comment (blank lines split paragraphs; single newlines stay as breaks). */
export function paragraphs(content: string): string[][] {
  return normaliseText(content)
    .split(/\n{2,}/)
    .map((block) => block.split('\n'))
    .filter((lines) => lines.some((line) => line.trim() !== ''));
}

// The same upstream list (the data cache hands every render the same object) gives the same thread
// object, so a rendered thread can be reused (src/lib/render/fragments.ts). Nothing changes a node.
/** `buildThread`, once per list object. */
export const threadOf: (comments: readonly Comment[]) => ThreadNode[] = memo(buildThread);
