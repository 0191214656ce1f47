import { describe, expect, it } from 'vitest';
import { messages } from './eslint-messages.ts';

describe('ESLint keeps the environment in the settings module', () => {
  it.each([
    [
      'process.env in a feature',
      'src/lib/reading/loaders.ts',
      "export const x = process.env['REDIS_URL'];\n",
    ],
    [
      'process.env destructured',
      'src/lib/booking/api/limits.ts',
      'const { env } = process;\nexport const x = env;\n',
    ],
    [
      'astro:env/server',
      'src/lib/delivery/compression.ts',
      "import { COMPRESSION } from 'astro:env/server';\nexport const x = COMPRESSION;\n",
    ],
    [
      "Astro's internal env schema",
      'src/integrations/health-endpoint.ts',
      "import { schema } from 'virtual:astro:env/internal';\nexport const x = schema;\n",
    ],
    [
      'an env variable through import.meta',
      'src/pages/404.astro',
      '---\nconst token = import.meta.env.STATUS_TOKEN;\n---\n<p>{token}</p>\n',
    ],
    ['process.env in npm start', 'scripts/start.mjs', 'export const port = process.env.PORT;\n'],
  ])('refuses %s', async (_label, path, source) => {
    const found = await messages(path, source);
    expect(found.join('\n')).toMatch(/settings\(\) from src\/lib\/settings\/settings\.ts/);
  });

  it('allows the settings module itself, and Astro build flags', async () => {
    expect(
      await messages('src/lib/settings/settings.ts', "export const x = process.env['X'];\n"),
    ).toEqual([]);
    expect(
      await messages(
        'src/pages/404.astro',
        '---\nconst dev = import.meta.env.DEV;\n---\n<p>{dev}</p>\n',
      ),
    ).toEqual([]);
  });

  it('refuses the contract mock in a component', async () => {
    const found = await messages(
      'src/components/posts/PostCards.astro',
      "---\nimport { seed } from '../../../mock/seed/posts.ts';\n---\n<p>{seed}</p>\n",
    );
    expect(found.join('\n')).toContain('The site never imports the contract mock.');
  });
});
