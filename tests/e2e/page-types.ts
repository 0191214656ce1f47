// Every page type of a tenant, with real slugs read from the contract mock: the list the overflow,
// language and screenshot checks walk.
import tenantsFile from '../../tenants.json' with { type: 'json' };

const PUBLISHING = 'http://127.0.0.1:4010/api/v1';

export interface PageType {
  name: string;
  path: string;
}

interface DemoTenant {
  id: string;
  name: string;
  locale: string;
  features?: { epaper?: boolean; streams?: boolean; booking?: boolean };
  lodging?: { propertyIds: string[] };
}

export const DEMO_TENANTS = tenantsFile.tenants as DemoTenant[];

async function first(
  tenant: string,
  path: string,
  publishing = PUBLISHING,
): Promise<{ slug: string } | undefined> {
  const response = await fetch(`${publishing}${path}`, { headers: { 'X-Tenant': tenant } });
  if (!response.ok) return undefined;
  const body = (await response.json()) as { data: { slug: string }[] };
  return body.data[0];
}

/** A word longer than any screen, as a reader might paste it into the search. */
export const LONG_WORD =
  'Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft';

/** `publishing`: the mock's publishing API (the e2e suite's fixed port by default). */
export async function pageTypes(tenant: DemoTenant, publishing = PUBLISHING): Promise<PageType[]> {
  const features = { epaper: true, streams: true, booking: false, ...tenant.features };
  const [post, category, tag, plan, edition, stream] = await Promise.all([
    first(tenant.id, '/posts?per_page=1', publishing),
    first(tenant.id, '/categories', publishing),
    first(tenant.id, '/tags', publishing),
    first(tenant.id, '/plans', publishing),
    features.epaper ? first(tenant.id, '/epaper?per_page=1', publishing) : undefined,
    features.streams ? first(tenant.id, '/streams?per_page=1', publishing) : undefined,
  ]);
  const types: (PageType | false | undefined)[] = [
    { name: 'home', path: '/' },
    { name: 'home-page-2', path: '/?page=2' },
    post && { name: 'post', path: `/posts/${post.slug}` },
    { name: 'categories', path: '/categories' },
    category && { name: 'category', path: `/categories/${category.slug}` },
    { name: 'tags', path: '/tags' },
    tag && { name: 'tag', path: `/tags/${tag.slug}` },
    { name: 'search', path: '/search?q=the' },
    { name: 'search-long-word', path: `/search?q=${LONG_WORD}` },
    { name: 'plans', path: '/plans' },
    plan && { name: 'plan', path: `/plans/${plan.slug}` },
    features.epaper && { name: 'epaper', path: '/epaper' },
    edition && { name: 'edition', path: `/epaper/${edition.slug}` },
    features.streams && { name: 'streams', path: '/streams' },
    stream && { name: 'stream', path: `/streams/${stream.slug}` },
    features.booking && { name: 'stay', path: '/stay' },
    { name: 'login', path: '/login' },
    { name: 'register', path: '/register' },
    { name: 'not-found', path: '/no-such-page' },
  ];
  return types.filter((type): type is PageType => Boolean(type));
}
