import { errorMessage } from '../content/records.ts';
import { z } from 'zod';
import { issueMessage, issuePath, parseJsonText } from '../failures/fields.ts';
import { LODGING_OPERATIONS } from '../lodging/operations.ts';
import { PUBLISHING_OPERATIONS } from '../publishing/operations.ts';
import type { Declared } from '../upstream/client-core.ts';
import { OperationProfileSchema } from '../upstream/profile.ts';
import type { OperationProfile, ServiceProfile } from '../upstream/profile.ts';

/**
 * Upstream profile files (`profiles/<name>.json`, JSON Schema in `profile.schema.json`): how one
 * API spells the operations of one service. `src/lib/upstream/profile.ts` applies them.
 */

export const SERVICES = ['publishing', 'lodging'] as const;
export type ProfileService = (typeof SERVICES)[number];

/** Each service's operations, as its client declares them. */
export const CATALOGUES: Record<ProfileService, Readonly<Record<string, Declared>>> = {
  publishing: PUBLISHING_OPERATIONS,
  lodging: LODGING_OPERATIONS,
};

/** Both services' (the two sign-ins share one name). */
export const ALL_OPERATIONS = [
  ...new Set([...Object.keys(PUBLISHING_OPERATIONS), ...Object.keys(LODGING_OPERATIONS)]),
];

const operations = z.partialRecord(z.enum(ALL_OPERATIONS), OperationProfileSchema);

const profileName = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]*$/,
    'Expected a profile name such as "publishing-alt" (a file in profiles/)',
  );

/** Inline in tenants.json (`publishing.profile`): a profile's name, or parts of one. */
export const InlineProfileSchema = z.union([
  profileName,
  z.strictObject({
    /** The profile this one changes (a file in profiles/); none: the default dialect. */
    extends: profileName.optional(),
    operations: operations.default({}),
  }),
]);
export type InlineProfile = z.output<typeof InlineProfileSchema>;

export const ProfileFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    service: z.enum(SERVICES),
    description: z.string().optional(),
    extends: profileName.optional(),
    operations: operations.default({}),
  })
  .superRefine((file, ctx) => {
    for (const name of Object.keys(file.operations)) {
      if (!Object.hasOwn(CATALOGUES[file.service], name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['operations', name],
          message: `"${name}" is not a ${file.service} operation (one of ${Object.keys(CATALOGUES[file.service]).join(', ')})`,
        });
      }
    }
  });
type ProfileFile = z.output<typeof ProfileFileSchema>;

class ProfileError extends Error {
  override name = 'ProfileError';
}

/** Parses one profile file's text; errors name the file and the field. */
export function parseProfileText(text: string, source: string): ProfileFile {
  const raw = parseJsonText(text, (reason) => new ProfileError(`Invalid ${source}: ${reason}`));
  const result = ProfileFileSchema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  - ${source} → ${issuePath(issue.path)}: ${issueMessage(issue)}`,
    );
    throw new ProfileError(`Invalid ${source}:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** The profile files a process knows: name → text and where it came from. */
export type ProfileTexts = ReadonlyMap<string, { source: string; text: string }>;

type Operations = Record<string, OperationProfile>;

/** `over` on `base`: its fields and renames join the base's, the rest replaces. */
export function mergeOp(
  base: OperationProfile | undefined,
  over: OperationProfile,
): OperationProfile {
  return {
    ...base,
    ...over,
    ...((base?.fields ?? over.fields) && { fields: { ...base?.fields, ...over.fields } }),
    ...((base?.rename ?? over.rename) && { rename: { ...base?.rename, ...over.rename } }),
  };
}

/**
 * Read when a tenant names no profile, and under every profile that extends none: lodging's spells
 * out the usual other names of what the contract leaves unshown (when the profiles hold it).
 */
const defaultProfile = (service: ProfileService, files: ProfileTexts): string | undefined =>
  service === 'lodging' && files.has('lodging-default') ? 'lodging-default' : undefined;

/** `profile` on what it extends (else on the default profile, unless it is that one). */
function withBase(
  profile: { extends?: string | undefined; operations: Partial<Operations> },
  service: ProfileService,
  files: ProfileTexts,
  seen: readonly string[],
): Operations {
  const fallback = defaultProfile(service, files);
  const from = profile.extends ?? (seen.at(-1) === fallback ? undefined : fallback);
  const out: Operations = from ? fileProfile(from, service, files, seen) : {};
  for (const [name, op] of Object.entries(profile.operations))
    if (op) out[name] = mergeOp(out[name], op);
  return out;
}

function fileProfile(
  name: string,
  service: ProfileService,
  files: ProfileTexts,
  seen: readonly string[],
): Operations {
  const file = files.get(name);
  if (!file) {
    const known = [...files.keys()].sort().join(', ') || 'none';
    throw new ProfileError(`Unknown ${service} profile "${name}" (profiles/: ${known})`);
  }
  if (seen.includes(name))
    throw new ProfileError(`Profile "${name}" extends itself (${[...seen, name].join(' → ')})`);
  const parsed = parseProfileText(file.text, file.source);
  if (parsed.service !== service) {
    throw new ProfileError(`${file.source} is a ${parsed.service} profile, named for ${service}`);
  }
  return withBase(parsed, service, files, [...seen, name]);
}

/**
 * A tenant's profile for one service, or undefined (none named nor default: requests as declared).
 * Its `name` is how logs and `/_status` name it: its file, `<file>+inline`, or `inline`.
 */
export function resolveProfile(
  service: ProfileService,
  named: InlineProfile | undefined,
  files: ProfileTexts,
): ServiceProfile | undefined {
  const ref = named ?? defaultProfile(service, files);
  if (ref === undefined) return undefined;
  const inline = typeof ref === 'string' ? { extends: ref, operations: {} } : ref;
  const name = typeof ref === 'string' ? ref : ref.extends ? `${ref.extends}+inline` : 'inline';
  return { name, operations: withBase(inline, service, files, []) };
}

/** `profiles/x.json` files as `ProfileTexts` (by file name without `.json`). */
export function profileTexts(entries: Iterable<[path: string, text: string]>): ProfileTexts {
  const map = new Map<string, { source: string; text: string }>();
  for (const [path, text] of entries) {
    const file = path.split('/').at(-1) ?? path;
    if (!file.endsWith('.json') || file.endsWith('.schema.json')) continue;
    map.set(file.slice(0, -'.json'.length), { source: `profiles/${file}`, text });
  }
  return map;
}

/** Resolves every tenant's profiles once, so a wrong name or file stops the start with tenant and field. */
export function checkTenantProfiles(
  tenants: readonly ({ id: string } & {
    [Service in ProfileService]?: { profile?: InlineProfile | undefined } | undefined;
  })[],
  files: ProfileTexts,
): void {
  for (const tenant of tenants) {
    for (const service of SERVICES) {
      try {
        resolveProfile(service, tenant[service]?.profile, files);
      } catch (error) {
        throw new ProfileError(
          `tenant "${tenant.id}" → ${service}.profile: ${errorMessage(error)}`,
        );
      }
    }
  }
}
