import type { APIRoute } from 'astro';
import { imageRoute } from '../lib/images/route.ts';

/** `/_img/[...path]`: injected by astro.config.mjs (Astro does not route `_` folders itself). */
export const prerender = false;

export const GET: APIRoute = (context) => imageRoute(context);
