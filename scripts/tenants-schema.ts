// Writes tenants.schema.json and profile.schema.json from the zod schemas so editors complete and
// check tenants.json and profiles/*.json.
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ProfileFileSchema } from '../src/lib/profiles/schema.ts';
import { TenantsFileSchema } from '../src/lib/tenants/schema.ts';

function write(file: string, title: string, schema: z.ZodType): void {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  const target = new URL(`../${file}`, import.meta.url);
  writeFileSync(target, `${JSON.stringify({ title, ...json }, null, 2)}\n`);
  console.log(`Wrote ${target.pathname}`);
}

write('tenants.schema.json', 'Masthead tenants', TenantsFileSchema);
write('profile.schema.json', 'Masthead upstream profile', ProfileFileSchema);
