// Imported first by the built server's entry (src/integrations/settings-check.ts), so
// `node dist/server/entry.mjs` and `npm start` refuse to start with an invalid setting instead of
// listening and answering 500 on every page.
import { environmentProblems } from './settings.ts';
import { settingsMessage } from './validate.ts';

const problems = environmentProblems();
if (problems.length > 0) {
  console.error(settingsMessage(problems));
  process.exit(1);
}
