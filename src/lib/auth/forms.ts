import { z } from 'zod';
import { textKey } from '../i18n/text-key.ts';

/** Input of the sign-in forms: Astro's `isInputError` shows these messages (text keys) next to the fields. */

const emailField = z
  .string({ error: textKey('auth.emailRequired') })
  .trim()
  .max(254, { error: textKey('auth.emailTooLong', { max: 254 }) })
  .pipe(z.email({ error: textKey('auth.emailInvalid') }));

/** Where to continue after signing in (checked by `safeNext` before use). */
const nextField = z.string().max(512).optional();

export const PASSWORD_MIN = 8;

export const loginInput = z.object({
  email: emailField,
  // Never trimmed: spaces may be part of a password.
  password: z
    .string({ error: textKey('auth.passwordRequired') })
    .max(1000, { error: textKey('auth.passwordTooLong') }),
  next: nextField,
});
export type LoginInput = z.output<typeof loginInput>;

export const registerInput = z
  .object({
    name: z
      .string({ error: textKey('auth.nameRequired') })
      .trim()
      .min(1, { error: textKey('auth.nameRequired') })
      .max(255, { error: textKey('auth.nameTooLong', { max: 255 }) }),
    email: emailField,
    password: z
      .string({ error: textKey('auth.passwordChoose') })
      .min(PASSWORD_MIN, { error: textKey('auth.passwordShort', { min: PASSWORD_MIN }) })
      .max(1000, { error: textKey('auth.passwordTooLong') }),
    password_confirmation: z.string({ error: textKey('auth.passwordRepeat') }),
    next: nextField,
  })
  .refine((value) => value.password === value.password_confirmation, {
    path: ['password_confirmation'],
    error: textKey('auth.passwordMismatch'),
    // Also when another field failed, so every message shows after one submit.
    when: (payload) => {
      const value = payload.value as Partial<Record<string, unknown>>;
      return (
        typeof value['password'] === 'string' && typeof value['password_confirmation'] === 'string'
      );
    },
  });
export type RegisterFormInput = z.output<typeof registerInput>;

/** The fields each form shows messages for (upstream 422 keys outside these go to the summary). */
export const LOGIN_FIELDS = ['email', 'password'] as const;
export const REGISTER_FIELDS = ['name', 'email', 'password', 'password_confirmation'] as const;
