// Imported by the built server's entry right after the settings check (src/integrations/settings-check.ts):
// a tenants file that cannot be read or fails validation stops the start with the reason, like an
// invalid setting, instead of a server that answers 500 on every page. (A running server that reads
// a bad file keeps its tenants instead: ./loader.ts.)
import { errorMessage } from '../content/records.ts';
import { tenantRegistry } from './registry.ts';

try {
  tenantRegistry();
} catch (error) {
  console.error(`Masthead cannot start: ${errorMessage(error)}`);
  process.exit(1);
}
