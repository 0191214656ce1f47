import { ActionError } from 'astro:actions';
import type { FieldErrors } from '../failures/fields.ts';
import type { FormFailure } from './failures.ts';

interface FieldIssue {
  code: 'custom';
  path: string[];
  message: string;
}

/**
 * The API's own field messages (422: "The email has already been taken.") as an Actions input
 * error, so pages read them exactly like local validation: `isInputError(error)` and
 * `error.fields`. Astro does not export `ActionInputError`; it recognises input errors by `type`
 * and rebuilds them from `issues` when it serialises the result (see `ActionError.fromJson`).
 * Messages for no particular field travel as issues with an empty path (summary only).
 */
class UpstreamFieldsError extends ActionError {
  override type = 'AstroActionInputError';
  readonly issues: FieldIssue[];
  readonly fields: FieldErrors;

  constructor(failure: FormFailure) {
    super({ code: 'BAD_REQUEST', message: failure.message });
    this.fields = failure.fields;
    this.issues = [
      ...Object.entries(failure.fields).flatMap(([field, messages]) =>
        messages.map((message): FieldIssue => ({ code: 'custom', path: [field], message })),
      ),
      { code: 'custom', path: [], message: failure.message },
    ];
  }
}

/** The ActionError a form shows for `failure`: field messages when it has any, else code + message. */
export function toActionError(failure: FormFailure): ActionError {
  if (Object.keys(failure.fields).length > 0) return new UpstreamFieldsError(failure);
  return new ActionError({ code: failure.code, message: failure.message });
}
