import { describe, expect, it } from 'vitest';
import { standing } from '../../../src/lib/auth/account.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';

const user = (roles: string[], hasActiveSubscription = false) => ({
  id: 1,
  name: 'Ada',
  roles,
  hasActiveSubscription,
});

describe('what an account is told it is (the account page’s subscription line)', () => {
  it.each([
    [['subscriber'], false, 'free'],
    [['subscriber'], true, 'paid'],
    [[], false, 'free'],
    [['editor'], false, 'editor'],
    [['editor', 'admin'], true, 'admin'],
    [['Admin'], false, 'admin'],
  ] as const)('roles %j, paid %s: %s', (roles, paid, expected) => {
    expect(standing(user([...roles], paid))).toBe(expected);
  });

  it.each([
    ['en-GB', 'Editor account', 'Administrator account'],
    ['de-CH', 'Redaktionskonto', 'Administratorkonto'],
    ['fr-FR', 'Compte de la rédaction', 'Compte administrateur'],
  ])('staff read their role in %s, never "free account"', (locale, editor, admin) => {
    const { t } = createI18n(locale, 'UTC');
    expect(t(`account.${standing(user(['editor']))}`)).toBe(editor);
    expect(t(`account.${standing(user(['admin']))}`)).toBe(admin);
  });
});
