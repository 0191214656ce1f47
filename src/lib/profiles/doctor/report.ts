import type { SecretKey } from '../../secrets/schema.ts';
import type { Declared } from '../../upstream/client-core.ts';
import type { Tenant } from '../../tenants/schema.ts';
import type { OperationProfile, ServiceProfile } from '../../upstream/profile.ts';
import type { Evidence } from './field-finder.ts';
import type { Getter } from './http.ts';
import type { Maps } from './maps.ts';
import type { Overrides } from '../../tenants/upstream-override.ts';
import type { ServiceTarget } from './target.ts';
import type { ProfileService, ProfileTexts } from '../schema.ts';

/** What the doctor is asked (its options), what it keeps while it reads, and what it answers (its report). */

/** A path tried, with its status (`budget`: not tried, the call budget was spent). */
export interface Tried {
  path: string;
  status: number | 'budget';
}

interface FieldReport {
  need: string;
  found: boolean;
  /** Where: the profile's path, a proposed one, or the site's own name. */
  path?: string | undefined;
  proposed?: boolean | undefined;
  /** Other places that fit every record as well (the proposal is the best ranked). */
  alternatives?: string[] | undefined;
  sample?: string | undefined;
}

/** One read operation being checked: its entries, its line of the report, what it is asked with. */
export interface Check {
  operation: string;
  declared: Declared;
  op: OperationProfile | undefined;
  entry: OperationReport;
  params: Record<string, string>;
  query: Record<string, string>;
  /** The path tried first: what --map settles, else the profile's, else the declared one. */
  template: string;
}

export interface OperationReport {
  service: ProfileService;
  operation: string;
  method: string;
  path?: string | undefined;
  /** The profile's (or default) path when it answered 404 and `path` is the one found instead. */
  notAt?: string | undefined;
  reachable: boolean;
  status?: number | undefined;
  envelope: { recognised: boolean; at?: string | undefined };
  fields: FieldReport[];
  rateLimit: Record<string, string>;
  /** Each path tried, in order. */
  tried?: Tried[] | undefined;
  /** What the answer did not fit, when the site's schema refused it. */
  issues?: string | undefined;
  /** Where a needed field was not found: the answer's places, types and masked samples. */
  shape?: string[] | undefined;
  /** On a 401 or 403: the secret or variable to set; why no answer came, or why the site refuses it. */
  hint?: string | undefined;
  skipped?: string | undefined;
}

export interface DoctorReport {
  tenant: string;
  at: string;
  /** The address of each service read, where it came from and how the doctor signed in. */
  services: ServiceTarget[];
  operations: OperationReport[];
  /** Profile entries that make the reports' missing fields and paths readable, per service. */
  proposals: Partial<Record<ProfileService, Record<string, OperationProfile>>>;
  /** `operation → field` still unreadable with the proposals: the doctor exits non-zero. */
  unmapped: string[];
  /** What to fix although the site may read (a refused token, an address that redirects): exits non-zero too. */
  toFix: string[];
  calls: number;
}

export interface DoctorOptions {
  tenant: Tenant;
  profiles: ProfileTexts;
  /** The tenant's secrets (`tenantSecrets(…).values`: SECRETS_FILE, then variables). */
  secrets: Partial<Record<SecretKey, string>>;
  /** Where each secret came from (`tenantSecrets(…).from`), to name it when an API refuses it. */
  secretsFrom?: Partial<Record<SecretKey, string>>;
  /** The deployment's upstream overrides, already applied to `tenant` (to say where an address came from). */
  overrides?: Overrides;
  /** What `--map` settles: entries checked as proposals and saved with them. */
  maps?: Maps;
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxBodyBytes?: number;
}

/** What the doctor keeps while it reads one service's operations in order. */
export interface ServiceRun {
  service: ProfileService;
  options: DoctorOptions;
  report: DoctorReport;
  baseUrl: string;
  profile: ServiceProfile | undefined;
  /** Profile entries proposed so far, per operation. */
  proposals: Record<string, OperationProfile>;
  /** Paths found: operation → template. */
  found: Map<string, string>;
  /** Operations not read, by why (`answers 401: <hint>`). */
  failed: Map<string, string[]>;
  /** What the site's schema read of each operation (its first item for a list). */
  samples: Map<string, unknown>;
  /** The raw first record of each list (its links, its ids). */
  rawItems: Map<string, unknown>;
  /** Ids and the asked stay, for judging fields by how they join (./field-finder.ts). */
  evidence: Evidence;
  getter: Getter;
  index: () => Promise<string[]>;
  /** What to set when the API answers 401 or 403 (./target.ts). */
  authHint: string;
  /** The API's name for `per_page`, when it reads the page size under another. */
  pageSizeName?: string | undefined;
}
