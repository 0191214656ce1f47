import type { APIRoute } from 'astro';
import { handle, otherMethods } from '../../../lib/booking/api/json.ts';

/** `GET`: the places to stay this tenant offers, with room types and capacity. */
export const GET: APIRoute = (context) =>
  handle(context, 'properties', (service) => service.properties());

export const ALL = otherMethods({ GET });
