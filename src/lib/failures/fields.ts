import { isRecord } from '../content/records.ts';
import { readTextKey } from '../i18n/text-key.ts';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';

/** Messages per form field; `form` holds those about no single field. The one shape of field errors. */
export type FieldErrors = Record<string, string[]>;

/** A zod issue, or one that travelled as JSON (Astro's action input errors). */
type Issue = Pick<z.core.$ZodIssue, 'path' | 'message'> & { code?: string; keys?: string[] };

/** Issues read back from JSON: anything without a path and a message is dropped. */
export function issuesFrom(value: unknown): Issue[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (issue: unknown): issue is Issue =>
      isRecord(issue) && Array.isArray(issue['path']) && typeof issue['message'] === 'string',
  );
}

/** An issue's message, naming unknown keys where zod's own text (which does not say which) is used. */
export function issueMessage(issue: Issue): string {
  if (issue.code === 'unrecognized_keys' && issue.keys && !readTextKey(issue.message)) {
    return `Unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  return issue.message;
}

/** A path as `a.b.0`, or `(root)`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : '(root)';
}

/** `path: message; …` of the first `max` issues: a short summary for logs. */
export function issuesSummary(issues: readonly Issue[], max = 5): string {
  return issues
    .slice(0, max)
    .map((issue) => `${issuePath(issue.path)}: ${issueMessage(issue)}`)
    .join('; ');
}

/** Issues as field errors: the first path segment names the field, anything else goes to `form`. */
export function fieldErrorsOf(issues: readonly Issue[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const key = typeof issue.path[0] === 'string' ? issue.path[0] : 'form';
    (fields[key] ??= []).push(issueMessage(issue));
  }
  return fields;
}

/** `line 3, column 5: CloseBraceExpected` for the first syntax error in strict JSON text. */
function jsonErrorPlace(text: string): string {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  const offset = first?.offset ?? text.length;
  const before = text.slice(0, offset).split('\n');
  const what = first ? `: ${printParseErrorCode(first.error)}` : '';
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}${what}`;
}

/**
 * A JSON file's text parsed (a UTF-8 BOM is fine), or `refuse` given where it breaks: `not valid
 * JSON at line 3, column 5: …`, never the text itself (a secrets file's would show its values).
 */
export function parseJsonText(text: string, refuse: (reason: string) => Error): unknown {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(body);
  } catch {
    throw refuse(`not valid JSON at ${jsonErrorPlace(body)}`);
  }
}
