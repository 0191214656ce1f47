import { writeFileSync } from 'node:fs';
import { demoAccounts } from './seed/accounts.ts';

/** Regenerates mock/demo-accounts.json (a contract test asserts it matches the seed module). */
const file = new URL('./demo-accounts.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(demoAccounts(), null, 2)}\n`);
console.log(`wrote ${file.pathname}`);
