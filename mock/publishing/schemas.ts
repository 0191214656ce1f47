import { z } from 'zod';
import { bool, email, int, oneOf, optional, required, str } from '../lib/validation.ts';

/** Request schemas of the publishing service, with Laravel's validation messages. */
export const LoginSchema = z.object({
  email: required(email('email')),
  password: required(str('password')),
});

export const RegisterSchema = z.object({
  name: required(str('name', { max: 255 })),
  email: required(email('email')),
  password: required(str('password', { min: 8 })),
});

const STATUSES = ['draft', 'published'] as const;

export const CreatePostSchema = z.object({
  title: required(str('title', { max: 255 })),
  content: optional(str('content')),
  excerpt: optional(str('excerpt', { max: 500 })),
  status: optional(oneOf('status', STATUSES)),
  category_id: optional(int('category_id')),
  is_featured: optional(bool('is_featured')),
});

export const UpdatePostSchema = z.object({
  title: optional(str('title', { max: 255 })),
  content: optional(str('content')),
  excerpt: optional(str('excerpt', { max: 500 })),
  status: optional(oneOf('status', STATUSES)),
  category_id: optional(int('category_id')),
  is_featured: optional(bool('is_featured')),
});

export const PostFilterSchema = z.object({
  category: optional(str('category')),
  tag: optional(str('tag')),
  featured: optional(bool('featured')),
  search: optional(str('search', { max: 255 })),
});

export const CommentSchema = z.object({
  content: required(str('content', { max: 2000 })),
  parent_id: optional(int('parent_id')),
});

/** What a guest must add to identify the comment author. */
export const GuestCommentSchema = z.object({
  author_name: required(str('author_name', { max: 100 })),
  author_email: required(email('author_email')),
});

/** Alt dialect: a guest identifies with `name` and `email`. */
export const AltGuestCommentSchema = z.object({
  name: required(str('name', { max: 100 })),
  email: required(email('email')),
});

export const ModerationQuerySchema = z.object({
  status: optional(oneOf('status', ['pending', 'approved'])),
});

export const AltModerationQuerySchema = z.object({
  status: optional(oneOf('status', ['awaiting_moderation', 'approved'])),
});
