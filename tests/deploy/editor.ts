import { readFileSync } from 'node:fs';
import { send } from './http.ts';
import type { Mock } from './stack.ts';

const demo = JSON.parse(
  readFileSync(new URL('../../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as { password: string; publishing: Record<string, { editor: { email: string } }> };

export interface Editor {
  publish(title: string): Promise<{ id: number; slug: string }>;
  unpublish(id: number): Promise<void>;
  /** A new headline for a published story. */
  retitle(id: number, title: string): Promise<void>;
  /** The mock's publishing calls per tenant (`GET /stats/tenants` of its control server). */
  tenantStats(): Promise<Record<string, Record<string, number>>>;
}

/** A newsroom editor writing through the publishing API's own write operations (the contract's create and update). */
export async function editorOf(mock: Mock, tenant: string): Promise<Editor> {
  const api = (path: string, method: string, body?: unknown, token?: string) =>
    send(`${mock.publishingUrl}${path}`, {
      method,
      headers: {
        'X-Tenant': tenant,
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const login = await api('/auth/login', 'POST', {
    email: demo.publishing[tenant]!.editor.email,
    password: demo.password,
  });
  if (login.status !== 200) throw new Error(`editor login: ${login.status} ${login.text}`);
  const { token } = (JSON.parse(login.text) as { data: { token: string } }).data;
  return {
    async publish(title) {
      const created = await api(
        '/posts',
        'POST',
        { title, content: `<p>${title}.</p>`, status: 'published' },
        token,
      );
      if (created.status !== 201) throw new Error(`publish: ${created.status} ${created.text}`);
      return (JSON.parse(created.text) as { data: { id: number; slug: string } }).data;
    },
    async unpublish(id) {
      const updated = await api(`/posts/${id}`, 'PATCH', { status: 'draft' }, token);
      if (updated.status !== 200) throw new Error(`unpublish: ${updated.status} ${updated.text}`);
    },
    async retitle(id, title) {
      const updated = await api(`/posts/${id}`, 'PATCH', { title }, token);
      if (updated.status !== 200) throw new Error(`retitle: ${updated.status} ${updated.text}`);
    },
    async tenantStats() {
      const stats = await send(`${mock.controlUrl}/stats/tenants`);
      return JSON.parse(stats.text) as Record<string, Record<string, number>>;
    },
  };
}
