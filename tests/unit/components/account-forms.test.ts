import { describe, expect, it } from 'vitest';
import AccountForm from '../../../src/components/account/AccountForm.astro';
import { EMPTY_FORM, type FormState } from '../../../src/lib/auth/failures.ts';
import { PASSWORD_MIN } from '../../../src/lib/auth/forms.ts';
import { render } from './render.ts';

// Markup of the sign-in forms without a browser: what a screen reader announces for each field.
const props = (form: 'login' | 'register', state: FormState) => ({
  form,
  action: `/${form}?_action=${form}`,
  state,
});

describe('login form', () => {
  it('labels every field and marks none invalid before a submit', async () => {
    const view = await render(AccountForm, { props: props('login', EMPTY_FORM) });
    const email = view.getByRole('textbox', { name: 'E-mail address' });
    expect(email.getAttribute('type')).toBe('email');
    expect(email.getAttribute('autocomplete')).toBe('email');
    expect(email.hasAttribute('aria-invalid')).toBe(false);
    expect(view.getByLabelText('Password').getAttribute('autocomplete')).toBe('current-password');
    expect(view.queryByRole('alert')).toBeNull();
  });

  it('after a failed submit: summary links to the field, which is invalid, described and keeps its value', async () => {
    const view = await render(AccountForm, {
      props: props('login', {
        message: 'Check the highlighted fields.',
        fields: { email: ['Enter a valid e-mail address.'] },
        values: { email: 'ada@example', password: 'typed secret' },
      }),
    });
    const email = view.getByRole('textbox', {
      name: 'E-mail address',
      description: 'Error: Enter a valid e-mail address.',
    });
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect((email as HTMLInputElement).value).toBe('ada@example');

    const summary = view.getByRole('alert');
    expect(summary.textContent).toContain('Check the highlighted fields.');
    const link = view.getByRole('link', { name: 'Enter a valid e-mail address.' });
    expect(link.getAttribute('href')).toBe(`#${email.id}`);

    const password = view.getByLabelText<HTMLInputElement>('Password');
    expect(password.value).toBe('');
    expect(password.hasAttribute('aria-invalid')).toBe(false);
  });
});

describe('register form', () => {
  it('describes the password rule, and the error beside it after a submit', async () => {
    const before = await render(AccountForm, { props: props('register', EMPTY_FORM) });
    const hint = `At least ${PASSWORD_MIN} characters.`;
    const password = before.getByLabelText('Password');
    expect(password.getAttribute('minlength')).toBe(String(PASSWORD_MIN));
    expect(password.getAttribute('aria-describedby')).toBeTruthy();
    expect(before.getByText(hint).id).toBe(password.getAttribute('aria-describedby'));

    const after = await render(AccountForm, {
      props: props('register', {
        message: 'Check the highlighted fields.',
        fields: {
          password: ['Use at least 8 characters.'],
          password_confirmation: ['The passwords do not match.'],
        },
        values: { name: 'Ada', email: 'ada@example.com' },
      }),
    });
    const described = (label: string) => after.descriptions(after.getByLabelText(label));
    expect(described('Password')).toEqual([hint, 'Error: Use at least 8 characters.']);
    expect(described('Repeat the password')).toEqual(['Error: The passwords do not match.']);
    expect(after.getByRole<HTMLInputElement>('textbox', { name: 'Name' }).value).toBe('Ada');
    expect(after.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Use at least 8 characters.', '#register-password'],
      ['The passwords do not match.', '#register-password_confirmation'],
    ]);
  });
});
