import { dialectOf } from '../lib/dialect.ts';
import { invalid, problem, readBody, unauthenticated } from '../lib/http.ts';
import { issueToken } from '../lib/tokens.ts';
import { msg, parse } from '../lib/validation.ts';
import type { MockState } from '../state.ts';
import type { PubApp, PubContext } from './context.ts';
import type { User } from './model.ts';
import { LoginSchema, RegisterSchema } from './schemas.ts';

/** The signed-in user, or a 401 response to return. */
export function requireUser(c: PubContext): User | Response {
  return c.get('user') ?? unauthenticated(c);
}

/** Alt: the subscription as an object (`null` without one) instead of a flag. */
const altSubscription = (user: User) =>
  user.hasActiveSubscription ? { status: 'active', plan: 'digital', renews_at: null } : null;

export function authRoutes(api: PubApp, state: MockState): void {
  const grant = (c: PubContext, user: User) => {
    const token = issueToken();
    state.publishing.tokens.set(token, { token, tenant: c.get('site').slug, userId: user.id });
    return token;
  };

  api.post('/auth/login', async (c) => {
    const input = parse(LoginSchema, await readBody(c));
    if (!input.ok) return invalid(c, input.errors);
    const email = input.data.email.toLowerCase();
    const user = c.get('site').users.find((u) => u.email.toLowerCase() === email);
    if (!user || user.password !== input.data.password) {
      // Alt: a 401 with a message, as hand-written login controllers answer.
      if (dialectOf(c) === 'alt') return problem(c, 401, 'Invalid credentials.');
      return invalid(c, { email: ['These credentials do not match our records.'] });
    }
    const token = grant(c, user);
    return c.json({
      data: {
        token,
        token_type: 'Bearer',
        user: { id: user.id, name: user.name, email: user.email },
      },
    });
  });

  api.post('/auth/register', async (c) => {
    const input = parse(RegisterSchema, await readBody(c));
    if (!input.ok) return invalid(c, input.errors);
    const site = c.get('site');
    const email = input.data.email.toLowerCase();
    if (site.users.some((u) => u.email.toLowerCase() === email)) {
      return invalid(c, { email: [msg.taken('email')] });
    }
    const user: User = {
      id: site.nextId.user++,
      name: input.data.name,
      email: input.data.email,
      password: input.data.password,
      roles: ['subscriber'],
      hasActiveSubscription: false,
    };
    site.users.push(user);
    return c.json({ data: { token: grant(c, user), user: { id: user.id, name: user.name } } }, 201);
  });

  api.get('/auth/me', (c) => {
    const user = requireUser(c);
    if (user instanceof Response) return user;
    return c.json({
      data: {
        id: user.id,
        name: user.name,
        email: user.email,
        roles: user.roles,
        ...(dialectOf(c) === 'alt'
          ? { subscription: altSubscription(user) }
          : { has_active_subscription: user.hasActiveSubscription }),
      },
    });
  });

  api.post('/auth/logout', (c) => {
    const token = c.get('token');
    if (!token) return unauthenticated(c);
    state.publishing.tokens.delete(token.token);
    return c.json({ message: 'Logged out.' });
  });
}
