import { describe, expect, it } from 'vitest';
import { messages } from './eslint-messages.ts';

// `.astro` files are not parsed by dependency-cruiser: ESLint keeps pages, components, actions and
// endpoints off the API clients (eslint.config.js), so a page cannot skip the feature layer.
const SKIPS_A_LAYER = /Call the upstream APIs through a feature module in src\/lib\/<area>\//;

describe('ESLint keeps the app layer on the feature modules', () => {
  it.each([
    [
      'a page importing a client',
      'src/pages/posts/[slug].astro',
      "---\nimport { publishingClient } from '../../lib/publishing/client.ts';\nconst c = publishingClient;\n---\n<p>{String(c)}</p>\n",
    ],
    [
      'a component importing the upstream core',
      'src/components/posts/PostCards.astro',
      "---\nimport { httpGet } from '../../lib/upstream/http.ts';\nconst get = httpGet;\n---\n<p>{String(get)}</p>\n",
    ],
    [
      'an endpoint importing the lodging client',
      'src/pages/api/booking/search.ts',
      "import { lodgingClient } from '../../../lib/lodging/client.ts';\nexport const GET = () => new Response(String(lodgingClient));\n",
    ],
  ])('refuses %s', async (_label, path, source) => {
    expect((await messages(path, source)).join('\n')).toMatch(SKIPS_A_LAYER);
  });

  it("allows an API's data types and the same import in a feature module", async () => {
    expect(
      await messages(
        'src/components/posts/PostCards.astro',
        "---\nimport type { Post } from '../../lib/publishing/schema.ts';\nconst p: Post | null = null;\n---\n<p>{String(p)}</p>\n",
      ),
    ).toEqual([]);
    expect(
      await messages(
        'src/lib/reading/loaders.ts',
        "import { publishingClient } from '../publishing/client.ts';\nexport const c = publishingClient;\n",
      ),
    ).toEqual([]);
  });
});
