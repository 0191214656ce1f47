import { z } from 'zod';

/** A refused "find my booking" (fields missing, too many look-ups), kept for the GET after the post. */
const findRefusalSchema = z.object({
  ok: z.literal(false),
  values: z.object({ email: z.string().catch(''), reference: z.string().catch('') }),
  fields: z.record(z.string(), z.array(z.string())).catch({}),
  message: z.string(),
});

/** What the session holds, when it is a refusal this page wrote; else undefined. */
export const findRefusal = (stored: unknown) => findRefusalSchema.safeParse(stored).data;
