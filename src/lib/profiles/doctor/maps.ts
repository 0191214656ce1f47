import type { OperationProfile } from '../../upstream/profile.ts';
import { ALL_OPERATIONS, CATALOGUES, SERVICES } from '../schema.ts';
import type { ProfileService } from '../schema.ts';

/**
 * `--map <operation>.<need>=<path>`: a person settles what the doctor could not decide
 * (`--map posts.list.author.name=writer.full`, `--map plans.list.path=/shop/plans`,
 * `--map guests.list.envelope=answer.rows`). The entries are checked like the doctor's own proposals
 * and saved with them by `--write`.
 */

export type Maps = Partial<Record<ProfileService, Record<string, OperationProfile>>>;

/** The `--map` arguments as profile entries per service; throws an error saying what is wrong. */
export function parseMaps(args: readonly string[]): Maps {
  const maps: Maps = {};
  for (const arg of args) {
    const eq = arg.indexOf('=');
    const key = eq > 0 ? arg.slice(0, eq) : '';
    const value = eq > 0 ? arg.slice(eq + 1).trim() : '';
    const [resource = '', verb = '', ...rest] = key.split('.');
    const operation = `${resource}.${verb}`;
    const need = rest.join('.');
    const service = SERVICES.find((one) => Object.hasOwn(CATALOGUES[one], operation));
    if (!service || !need) {
      throw new Error(
        `--map ${arg}: expected <operation>.<need>=<path>, such as posts.list.title=headline (operations: ${ALL_OPERATIONS.join(', ')})`,
      );
    }
    const ops = (maps[service] ??= {});
    const op: OperationProfile = ops[operation] ?? {};
    if (need === 'path') {
      if (!value.startsWith('/')) throw new Error(`--map ${arg}: a path starts with "/"`);
      ops[operation] = { ...op, path: value };
    } else if (need === 'envelope') {
      ops[operation] = { ...op, envelope: [value] };
    } else {
      ops[operation] = { ...op, fields: { ...op.fields, [need]: [value] } };
    }
  }
  return maps;
}
