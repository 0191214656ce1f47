// Writes tenants.schema.json from the zod schema so editors complete and check tenants.json.
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { TenantsFileSchema } from '../src/lib/tenants/schema.ts';

const schema = z.toJSONSchema(TenantsFileSchema, { io: 'input', unrepresentable: 'any' });
const target = new URL('../tenants.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify({ title: 'Masthead tenants', ...schema }, null, 2)}\n`);
console.log(`Wrote ${target.pathname}`);
