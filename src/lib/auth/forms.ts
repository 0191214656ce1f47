import { z } from 'zod';

/** Input of the sign-in forms: Astro's `isInputError` shows these messages next to the fields. */

const emailField = z
  .string({ error: 'Enter your e-mail address.' })
  .trim()
  .max(254, { error: 'An e-mail address has at most 254 characters.' })
  .pipe(z.email({ error: 'Enter an e-mail address like name@example.com.' }));

/** Where to continue after signing in (checked by `safeNext` before use). */
const nextField = z.string().max(512).optional();

export const PASSWORD_MIN = 8;

export const loginInput = z.object({
  email: emailField,
  // Never trimmed: spaces may be part of a password.
  password: z
    .string({ error: 'Enter your password.' })
    .max(1000, { error: 'That password is too long.' }),
  next: nextField,
});
export type LoginInput = z.output<typeof loginInput>;

export const registerInput = z
  .object({
    name: z
      .string({ error: 'Enter your name.' })
      .trim()
      .min(1, { error: 'Enter your name.' })
      .max(255, { error: 'A name has at most 255 characters.' }),
    email: emailField,
    password: z
      .string({ error: 'Choose a password.' })
      .min(PASSWORD_MIN, { error: `Use at least ${PASSWORD_MIN} characters.` })
      .max(1000, { error: 'That password is too long.' }),
    password_confirmation: z.string({ error: 'Enter the password again.' }),
    next: nextField,
  })
  .refine((value) => value.password === value.password_confirmation, {
    path: ['password_confirmation'],
    error: 'The two passwords do not match.',
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
