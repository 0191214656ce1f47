import { z } from 'zod';
import type { MessageKey } from '../i18n/index.ts';
import { textKey } from '../i18n/text-key.ts';
import { isBlank } from '../forms/blank.ts';
import { isEmailAddress, straightenPunctuation } from '../forms/email.ts';
import type { FieldKeys } from '../failures/upstream-text.ts';
import { MESSAGES } from './failures.ts';

/** Input of the sign-in forms: Astro's `isInputError` shows these messages (text keys) next to the fields. */

const emailField = z
  .string({ error: textKey('auth.emailRequired') })
  .trim()
  .overwrite(straightenPunctuation)
  .max(254, { error: textKey('auth.emailTooLong', { max: 254 }) })
  .refine(isEmailAddress, { error: textKey('auth.emailInvalid') });

export const PASSWORD_MIN = 8;

export const loginInput = z.object({
  email: emailField,
  // Never trimmed: spaces may be part of a password.
  password: z
    .string({ error: textKey('auth.passwordRequired') })
    .max(1000, { error: textKey('auth.passwordTooLong') }),
});

const bothPasswords = z.object({ password: z.string(), password_confirmation: z.string() });

export const registerInput = z
  .object({
    name: z
      .string({ error: textKey('auth.nameRequired') })
      .trim()
      // Invisible characters only are no name: the account would greet nobody.
      .refine((name) => !isBlank(name), { error: textKey('auth.nameRequired') })
      .max(255, { error: textKey('auth.nameTooLong', { max: 255 }) }),
    email: emailField,
    password: z
      .string({ error: textKey('auth.passwordChoose') })
      .min(PASSWORD_MIN, { error: textKey('auth.passwordShort', { min: PASSWORD_MIN }) })
      .max(1000, { error: textKey('auth.passwordTooLong') }),
    password_confirmation: z.string({ error: textKey('auth.passwordRepeat') }),
  })
  .refine((value) => value.password === value.password_confirmation, {
    path: ['password_confirmation'],
    error: textKey('auth.passwordMismatch'),
    // Also when another field failed, so every message shows after one submit.
    when: ({ value }) => bothPasswords.safeParse(value).success,
  });

/** One field of an account form as `components/account/AccountForm.astro` shows it. */
export interface AccountField {
  name: 'name' | 'email' | 'password' | 'password_confirmation';
  label: MessageKey;
  type: 'text' | 'email' | 'password';
  autocomplete: string;
  /** Addresses and passwords: no spell check, no capital first letter. */
  verbatim?: true;
  /** A password never travels back into the page. */
  secret?: true;
  /** A hint with the minimum length, and the length itself on the control. */
  minLength?: number;
}

const email: AccountField = {
  name: 'email',
  label: 'field.email',
  type: 'email',
  autocomplete: 'email',
  verbatim: true,
};
const password = (autocomplete: string): AccountField => ({
  name: 'password',
  label: 'field.password',
  type: 'password',
  autocomplete,
  verbatim: true,
  secret: true,
});

/**
 * Each account form: its button, its fields in order (upstream 422 keys outside these go to the
 * summary), the summary over field messages, and the form's own words for what the upstream
 * refused (`src/lib/failures/upstream-text.ts`).
 */
export const ACCOUNT_FORMS = {
  login: {
    submit: 'nav.login',
    fields: [email, password('current-password')],
    summary: MESSAGES.loginRefused,
    keys: {
      email: {
        credentials: 'auth.credentialsWrong',
        required: 'auth.emailRequired',
        email: 'auth.emailInvalid',
      },
      password: { credentials: 'auth.credentialsWrong', required: 'auth.passwordRequired' },
    },
  },
  register: {
    submit: 'register.submit',
    fields: [
      { name: 'name', label: 'field.name', type: 'text', autocomplete: 'name' },
      email,
      { ...password('new-password'), minLength: PASSWORD_MIN },
      { ...password('new-password'), name: 'password_confirmation', label: 'field.passwordRepeat' },
    ],
    summary: MESSAGES.fields,
    keys: {
      name: { required: 'auth.nameRequired', tooLong: 'auth.nameTooLong' },
      email: {
        required: 'auth.emailRequired',
        email: 'auth.emailInvalid',
        taken: 'auth.emailTaken',
        tooLong: 'auth.emailTooLong',
      },
      password: { required: 'auth.passwordChoose', tooShort: 'auth.passwordShort' },
    },
  },
} as const satisfies Record<
  string,
  { submit: MessageKey; fields: readonly AccountField[]; summary: string; keys: FieldKeys }
>;
export type AccountFormName = keyof typeof ACCOUNT_FORMS;

/** The names of `form`'s fields, in order. */
export const fieldNames = (form: AccountFormName): string[] =>
  ACCOUNT_FORMS[form].fields.map((field) => field.name);
