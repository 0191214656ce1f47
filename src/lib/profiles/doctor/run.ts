import type { Declared } from '../../publishing/operations.ts';
import type { OperationProfile, ServiceProfile } from '../../upstream/profile.ts';
import type { DoctorOptions, DoctorReport } from './report.ts';
import type { ProfileService } from '../schema.ts';
import type { Evidence } from './field-finder.ts';
import type { Getter } from './http.ts';

/** What the doctor keeps while it reads one service's operations in order. */
export interface ServiceRun {
  service: ProfileService;
  options: DoctorOptions;
  report: DoctorReport;
  baseUrl: string;
  catalogue: Record<string, Declared>;
  profile: ServiceProfile | undefined;
  /** Profile entries proposed so far, per operation. */
  proposals: Record<string, OperationProfile>;
  /** Paths found: operation → template. */
  found: Map<string, string>;
  /** What the site's schema read of each operation (its first item for a list). */
  samples: Map<string, unknown>;
  /** The raw first record of each list (its links, its ids). */
  rawItems: Map<string, unknown>;
  /** Ids and the asked stay, for judging fields by how they join (./field-finder.ts). */
  evidence: Evidence;
  getter: Getter;
  index: () => Promise<string[]>;
  maxCalls: number;
  /** The API's name for `per_page`, when it reads the page size under another. */
  pageSizeName?: string | undefined;
}
