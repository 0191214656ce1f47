import { parseEnv } from 'node:util';
import { z } from 'zod';
import { parseJsonText } from '../failures/fields.ts';
import { MIN_SECRET_LENGTH } from '../settings/schema.ts';
import { SLUG } from '../tenants/schema.ts';

/**
 * The secrets file (`SECRETS_FILE`), keyed by tenant id (docs/deploy.md, section 8): JSON when its
 * first character is `{` (`{"harbour-times": {"lodgingToken": "…"}}`), else `.env` lines read by
 * Node's own parser (`harbour-times__LODGING_TOKEN=…`). No message built here holds a value.
 */

/** A value; an empty one counts as unset (as an empty variable does). */
const secretValue = z
  .string()
  .transform((value) => value.trim() || undefined)
  .optional();

const TenantSecretsSchema = z.strictObject({
  /** Publishing read token: the tenant's public reads spend its own 240/min. */
  publishingReadToken: secretValue,
  /** Lodging API token (or the e-mail and password below). */
  lodgingToken: secretValue,
  lodgingEmail: secretValue,
  lodgingPassword: secretValue,
  /** Bearer secret of the tenant's `POST /_purge`: long enough that guessing is hopeless. */
  purgeSecret: secretValue.refine(
    (value) => value === undefined || value.length >= MIN_SECRET_LENGTH,
    `must be at least ${MIN_SECRET_LENGTH} characters`,
  ),
});

/** Every secret a tenant can have, in the file's order. */
export const SECRET_KEY_NAMES = TenantSecretsSchema.keyof().options;

/** One tenant's secrets as the file gives them (absent: not in the file). */
export type TenantSecretValues = z.output<typeof TenantSecretsSchema>;
export type SecretKey = keyof TenantSecretValues;

/** A secret's `.env` spelling: `lodgingToken` → `LODGING_TOKEN`. */
export const envSpelling = (key: SecretKey): string => key.replace(/[A-Z]/g, '_$&').toUpperCase();

/** Keyed by tenant ids as tenants.json spells them. */
const SecretsFileSchema = z.record(z.string().regex(SLUG), TenantSecretsSchema, {
  error: (issue) =>
    issue.code === 'invalid_key' ? 'is not a tenant id such as "daily-planet"' : undefined,
});

export type SecretsByTenant = ReadonlyMap<string, TenantSecretValues>;

/** A secrets file that cannot be used; the message names the file and each reason, never a value. */
export class SecretsFileError extends Error {
  constructor(file: string, reasons: readonly string[]) {
    super(`The secrets file ${file} cannot be used: ${reasons.join('; ')}.`);
    this.name = 'SecretsFileError';
  }
}

/** `path: message` of each zod issue (the path is a tenant id and a key, never a value). */
function issueReasons(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    return where ? `${where}: ${issue.message}` : issue.message;
  });
}

/** `.env` lines → the JSON form: `harbour-times__LODGING_TOKEN` → `{"harbour-times": {lodgingToken}}`. */
function fromEnvLines(text: string, reasons: string[]): Record<string, Record<string, string>> {
  const byName = new Map(SECRET_KEY_NAMES.map((key) => [envSpelling(key), key]));
  const tenants: Record<string, Record<string, string>> = {};
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    const at = name.lastIndexOf('__');
    const key = at > 0 ? byName.get(name.slice(at + 2)) : undefined;
    if (key) (tenants[name.slice(0, at)] ??= {})[key] = value ?? '';
    else unknown.push(name);
  }
  if (unknown.length > 0) {
    reasons.push(
      `${unknown.join(', ')}: expected <tenant-id>__<${SECRET_KEY_NAMES.map(envSpelling).join('|')}>`,
    );
  }
  return tenants;
}

/** The secrets of a file's text, by tenant id; a `SecretsFileError` naming every problem. */
export function parseSecretsText(text: string, file: string): SecretsByTenant {
  const body = text.replace(/^\uFEFF/, '');
  const reasons: string[] = [];
  const raw = body.trimStart().startsWith('{')
    ? parseJsonText(body, (reason) => new SecretsFileError(file, [`it is ${reason}`]))
    : fromEnvLines(body, reasons);
  const parsed = SecretsFileSchema.safeParse(raw);
  if (!parsed.success) reasons.push(...issueReasons(parsed.error));
  if (reasons.length > 0 || !parsed.success) throw new SecretsFileError(file, reasons);
  return new Map(Object.entries(parsed.data));
}
