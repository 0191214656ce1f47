import { addDays, addMinutes, isoDate, isoTime } from '../lib/dates.ts';
import { editionPages, type MediaMode } from '../lib/media-mode.ts';
import { createRng, type Rng } from '../lib/prng.ts';
import type {
  Comment,
  Edition,
  Plan,
  Post,
  PublishingData,
  Site,
  Stream,
  User,
} from '../publishing/model.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './accounts.ts';
import { THEMES, type Theme } from './themes.ts';
import { articleHtml, DANGEROUS, fill, paragraph, slugify } from './text.ts';

export const WELCOME_SLUG = 'welcome-to-our-new-website';

function users(theme: Theme): User[] {
  const demo = DEMO_USERS.map((u, i) => ({
    id: i + 1,
    name: u.name,
    email: u.email,
    password: DEMO_PASSWORD,
    roles: [...u.roles],
    hasActiveSubscription: u.hasActiveSubscription,
  }));
  const staff = theme.writers.map((name, i) => ({
    id: demo.length + i + 1,
    name,
    email: `${slugify(name).replace('-', '.')}@${theme.slug}.test`,
    password: DEMO_PASSWORD,
    roles: ['editor'],
    hasActiveSubscription: false,
  }));
  return [...demo, ...staff];
}

function posts(rng: Rng, theme: Theme, site: Site, now: Date, count: number): Post[] {
  const taken = new Set<string>([WELCOME_SLUG]);
  const suffix = new Map<string, number>(); // next free `-n` per base slug, keeps scaling linear
  const authors = site.users.filter((u) => u.roles.includes('editor'));
  const draftTagIds = site.tags
    .filter((t) => theme.draftOnlyTags.includes(t.name))
    .map((t) => t.id);
  const publicTagIds = site.tags.map((t) => t.id).filter((id) => !draftTagIds.includes(id));
  const spacingMin = Math.max(1, Math.floor((90 * 24 * 60) / count));
  const welcomeAt = addDays(now, -2);
  const welcome: Post = {
    id: 1,
    title: theme.welcome.title,
    slug: WELCOME_SLUG,
    excerpt: theme.welcome.excerpt,
    // Every trap for the sanitizer, in one post that exists in every tenant.
    content: [
      articleHtml(rng, theme, theme.slug, WELCOME_SLUG, theme.welcome.lead, null),
      ...DANGEROUS,
    ].join('\n'),
    status: 'published',
    publishedAt: isoTime(welcomeAt),
    updatedAt: isoTime(welcomeAt),
    authorId: 1,
    categoryId: site.categories.find((c) => c.slug === 'news')?.id ?? null,
    tagIds: publicTagIds.slice(0, 2),
    isFeatured: true,
    hasCover: true,
  };
  const list = [welcome];
  for (let i = 1; i < count; i++) {
    const catIndex = rng.int(0, theme.categories.length - 1);
    const cat = theme.categories[catIndex];
    const title = fill(rng, theme, rng.pick(cat?.headlines ?? ['Untitled']));
    const root = slugify(title);
    let slug = root;
    for (let n = suffix.get(root) ?? 2; taken.has(slug); n++) {
      slug = `${root}-${n}`;
      suffix.set(root, n + 1);
    }
    taken.add(slug);
    const draft = i % 10 === 3 || rng.chance(0.04);
    const at = addMinutes(now, -(i * spacingMin + rng.int(0, Math.floor(spacingMin / 2))));
    const lead = paragraph(rng, theme, 1);
    const dangerous = i % 15 === 7 ? (DANGEROUS[((i / 15) % DANGEROUS.length) | 0] ?? null) : null;
    const tagIds = rng.sample(publicTagIds, rng.int(1, 3));
    if (draft && draftTagIds.length && rng.chance(0.5)) tagIds.push(...draftTagIds);
    list.push({
      id: i + 1,
      title,
      slug,
      excerpt: `${lead} ${paragraph(rng, theme, 1)}`,
      content: articleHtml(rng, theme, theme.slug, slug, lead, dangerous),
      status: draft ? 'draft' : 'published',
      publishedAt: draft ? null : isoTime(at),
      updatedAt: isoTime(at),
      authorId: rng.pick(authors).id,
      categoryId: catIndex + 1,
      tagIds: tagIds.sort((a, b) => a - b),
      isFeatured: !draft && (i % 17 === 5 || i < 4),
      hasCover: rng.chance(0.85),
    });
  }
  if (draftTagIds.length) list.find((p) => p.status === 'draft')?.tagIds.push(...draftTagIds);
  return list;
}

function plans(theme: Theme): Plan[] {
  const c = theme.currency;
  // Ids differ from the content order on purpose: clients must keep the API's order.
  return [
    {
      id: 1,
      slug: 'annual',
      name: 'Annual All Access',
      description: 'Everything for a year, two months free.',
      price: '149.00',
      currency: c,
      interval: 'year',
      features: [
        'Unlimited articles',
        'E-paper archive',
        'Ad-free reading',
        'Subscriber newsletter',
      ],
      active: true,
      position: 3,
    },
    {
      id: 2,
      slug: 'digital',
      name: 'Digital',
      description: 'All articles on every device.',
      price: '9.90',
      currency: c,
      interval: 'month',
      features: ['Unlimited articles', 'Newsletter'],
      active: true,
      position: 1,
    },
    {
      id: 3,
      slug: 'digital-epaper',
      name: 'Digital + E-Paper',
      description: `Articles plus the ${theme.edition} e-paper every morning.`,
      price: '14.90',
      currency: c,
      interval: 'month',
      features: ['Unlimited articles', 'Daily e-paper', 'E-paper archive'],
      active: true,
      position: 2,
    },
    {
      id: 4,
      slug: 'founding-member',
      name: 'Founding Member',
      description: 'Retired launch offer.',
      price: '4.90',
      currency: c,
      interval: 'month',
      features: ['Unlimited articles'],
      active: false,
      position: 4,
    },
  ];
}

function editions(rng: Rng, theme: Theme, now: Date, media: MediaMode): Edition[] {
  return Array.from({ length: 10 }, (_, k) => {
    const day = addDays(now, -(7 * k + 1));
    const date = isoDate(day);
    const label = day.toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    return {
      id: k + 1,
      title: `${theme.edition} Weekend Edition, ${label}`,
      slug: `weekend-edition-${date}`,
      pageCount: editionPages(media, rng.int(8, 16)),
      isFree: k % 3 === 2,
      publishedAt: date,
    };
  });
}

function streams(rng: Rng, theme: Theme, now: Date): Stream[] {
  return theme.streams.map((title, i) => {
    const status = i < 2 ? 'live' : i < 5 ? 'scheduled' : 'ended';
    const scheduled =
      status === 'live'
        ? addMinutes(now, -30 - i * 15)
        : status === 'scheduled'
          ? addMinutes(addDays(now, i - 1), 18 * 60)
          : addMinutes(addDays(now, -(i - 3) * 3), 19 * 60);
    return {
      id: i + 1,
      title,
      slug: slugify(title),
      description: paragraph(rng, theme, 2),
      status,
      scheduledAt: isoTime(scheduled),
      startedAt: status === 'scheduled' ? null : isoTime(scheduled),
      endedAt: status === 'ended' ? isoTime(addMinutes(scheduled, 95)) : null,
    };
  });
}

function comments(rng: Rng, theme: Theme, site: Site): Comment[] {
  const list: Comment[] = [];
  const add = (post: Post, parent: Comment | null, status: Comment['status'], text: string) => {
    const base = parent ? Date.parse(parent.createdAt) : Date.parse(post.publishedAt ?? '');
    const name = rng.pick(theme.commenters);
    const c: Comment = {
      id: list.length + 1,
      postId: post.id,
      parentId: parent?.id ?? null,
      content: text,
      authorName: name,
      authorEmail: `${slugify(name) || 'reader'}@example.com`,
      userId: null,
      status,
      createdAt: isoTime(new Date(base + rng.int(5, 600) * 60_000)),
    };
    list.push(c);
    return c;
  };
  const published = site.posts.filter((p) => p.status === 'published').slice(0, 40);
  for (const post of published) {
    const welcome = post.slug === WELCOME_SLUG;
    const top = welcome ? 3 : rng.int(0, 4);
    for (let i = 0; i < top; i++) {
      const c = add(post, null, 'approved', rng.pick(theme.comments));
      if (welcome || rng.chance(0.4)) {
        const r = add(post, c, 'approved', rng.pick(theme.replies));
        if (welcome && i === 0) add(post, r, 'approved', rng.pick(theme.replies));
        if (welcome && i === 1) add(post, c, 'pending', rng.pick(theme.replies));
      }
    }
    if (welcome || rng.chance(0.25)) add(post, null, 'pending', rng.pick(theme.comments));
  }
  return list;
}

/** Builds one tenant's site from its theme; all randomness comes from `rng`. */
function site(rng: Rng, theme: Theme, now: Date, postsPerTenant: number, media: MediaMode): Site {
  const s: Site = {
    slug: theme.slug,
    name: theme.name,
    color: theme.color,
    accent: theme.accent,
    users: users(theme),
    posts: [],
    categories: theme.categories.map((c, i) => ({ id: i + 1, name: c.name, slug: c.slug })),
    tags: [...theme.tags, ...theme.draftOnlyTags].map((name, i) => ({
      id: i + 1,
      name,
      slug: slugify(name),
    })),
    plans: plans(theme),
    editions: editions(rng, theme, now, media),
    streams: streams(rng, theme, now),
    comments: [],
    nextId: { user: 0, post: 0, comment: 0 },
  };
  s.posts = posts(rng, theme, s, now, Math.max(1, postsPerTenant));
  s.comments = comments(rng, theme, s);
  s.nextId = { user: s.users.length + 1, post: s.posts.length + 1, comment: s.comments.length + 1 };
  return s;
}

export function seedPublishing(
  seed: number,
  now: Date,
  postsPerTenant: number,
  media: MediaMode = 'svg',
): PublishingData {
  const sites = new Map<string, Site>();
  THEMES.forEach((theme, i) => {
    sites.set(theme.slug, site(createRng(seed * 31 + i), theme, now, postsPerTenant, media));
  });
  return { sites, tokens: new Map() };
}
