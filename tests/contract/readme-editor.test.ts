import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useMock } from './helpers.ts';

// mock/README.md, "Publishing as the editor": the documented requests, sent as written.
const readme = readFileSync(new URL('../../mock/README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## Publishing as the editor')).split('\n## ')[0] ?? '';
const commands = (section.split('```sh\n')[1]?.split('```')[0] ?? '')
  .replaceAll('\\\n', ' ')
  .split('\n')
  .filter((line) => line.startsWith('curl '));

/** The path (after /api/v1), tenant and JSON body of one documented curl command. */
function request(command: string) {
  return {
    path: /\/api\/v1(\/[\w/]+)/.exec(command)?.[1] ?? '',
    tenant: /'X-Tenant: ([\w-]+)'/.exec(command)?.[1] ?? '',
    body: JSON.parse(/-d '([^']+)'/.exec(command)?.[1] ?? 'null') as Record<string, unknown>,
  };
}

const t = useMock();

describe('mock/README.md: publishing as the editor', () => {
  it('logs in and publishes with the documented requests; the post is then the newest', async () => {
    expect(commands).toHaveLength(2);
    const [login, publish] = commands.map(request);
    const answer = await t.pub(login!.path, {
      method: 'POST',
      tenant: login!.tenant,
      body: login!.body,
    });
    expect(answer.status).toBe(200);
    const token = (answer.body as { data: { token: string } }).data.token;
    expect(token).toMatch(/^\d+\|/);

    const created = await t.pub(publish!.path, {
      method: 'POST',
      tenant: publish!.tenant,
      token,
      body: publish!.body,
    });
    expect(created.status).toBe(201);
    const { slug, status } = (created.body as { data: { slug: string; status: string } }).data;
    expect(section).toContain(`"slug": "${slug}"`);
    expect(status).toBe('published');

    const newest = await t.pub('/posts?per_page=1', { tenant: publish!.tenant });
    expect((newest.body as { data: { slug: string }[] }).data[0]?.slug).toBe(slug);
  });
});
