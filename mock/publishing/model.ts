/** In-memory records of the publishing service (one `Site` per tenant; ids are per tenant). */
export type User = {
  id: number;
  name: string;
  email: string;
  password: string;
  roles: string[];
  hasActiveSubscription: boolean;
};

export type Post = {
  id: number;
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  status: 'draft' | 'published';
  publishedAt: string | null;
  updatedAt: string;
  authorId: number;
  categoryId: number | null;
  tagIds: number[];
  isFeatured: boolean;
  hasCover: boolean;
};

export type Category = { id: number; name: string; slug: string };
export type Tag = { id: number; name: string; slug: string };

export type Plan = {
  id: number;
  name: string;
  slug: string;
  description: string;
  price: string;
  currency: string;
  interval: 'month' | 'year';
  features: string[];
  active: boolean;
  position: number;
};

export type Edition = {
  id: number;
  title: string;
  slug: string;
  pageCount: number;
  isFree: boolean;
  publishedAt: string;
};

export type Stream = {
  id: number;
  title: string;
  slug: string;
  description: string;
  status: 'live' | 'scheduled' | 'ended';
  scheduledAt: string;
  startedAt: string | null;
  endedAt: string | null;
};

export type Comment = {
  id: number;
  postId: number;
  parentId: number | null;
  content: string;
  authorName: string;
  authorEmail: string;
  userId: number | null;
  status: 'pending' | 'approved';
  createdAt: string;
};

export type Site = {
  slug: string;
  name: string;
  color: string;
  accent: string;
  users: User[];
  posts: Post[];
  categories: Category[];
  tags: Tag[];
  plans: Plan[];
  editions: Edition[];
  streams: Stream[];
  comments: Comment[];
  nextId: { user: number; post: number; comment: number };
};

/** Issued bearer token; publishing tokens are bound to the tenant that issued them. */
export type AccessToken = { token: string; tenant: string; userId: number };

export type PublishingData = {
  sites: Map<string, Site>;
  tokens: Map<string, AccessToken>;
};
