import { invalid, readBody } from '../lib/http.ts';
import { issueToken } from '../lib/tokens.ts';
import { parse } from '../lib/validation.ts';
import type { MockState } from '../state.ts';
import type { LodgeApp } from './context.ts';
import { isAlt } from './dialect.ts';
import { LoginSchema } from './schemas.ts';

export function authRoutes(api: LodgeApp, state: MockState): void {
  api.post('/auth/login', async (c) => {
    const input = parse(LoginSchema, await readBody(c));
    if (!input.ok) return invalid(c, input.errors);
    const email = input.data.email.toLowerCase();
    const user = state.lodging.users.find((u) => u.email.toLowerCase() === email);
    if (!user || user.password !== input.data.password) {
      return invalid(c, { email: ['These credentials do not match our records.'] });
    }
    const token = issueToken();
    state.lodging.tokens.set(token, {
      token,
      accountId: user.accountId,
      userId: user.id,
      abilities: ['*'],
    });
    // Unwrapped, exactly as the contract shows login.
    return c.json({
      user: { id: user.id, name: user.name, email: user.email },
      token,
      token_type: 'Bearer',
    });
  });

  api.get('/auth/me', (c) => {
    const u = c.get('user');
    const me = { id: u.id, name: u.name, email: u.email };
    return c.json(isAlt(c) ? me : { data: me });
  });

  api.post('/auth/logout', (c) => {
    state.lodging.tokens.delete(c.get('token').token);
    return isAlt(c) ? c.body(null, 204) : c.json({ message: 'Logged out.' });
  });
}
