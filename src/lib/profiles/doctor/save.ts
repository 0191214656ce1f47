import { applyEdits, modify } from 'jsonc-parser';
import type { Tenant } from '../../tenants/schema.ts';
import type { OperationProfile } from '../../upstream/profile.ts';
import type { DoctorReport } from './report.ts';
import { mergeOp, parseProfileText } from '../schema.ts';
import type { ProfileService, ProfileTexts } from '../schema.ts';

/** `[a]` → `"a"`: one path reads better without brackets. */
function compact(op: OperationProfile): Record<string, unknown> {
  const out: Record<string, unknown> = { ...op };
  if (op.envelope?.length === 1) out['envelope'] = op.envelope[0];
  if (op.fields) {
    out['fields'] = Object.fromEntries(
      Object.entries(op.fields).map(([k, v]) => [k, v.length === 1 ? v[0] : v]),
    );
  }
  return out;
}

/**
 * What `npm run doctor -- <tenant> --write` saves: the tenant's own profile `<tenant>-<service>`
 * per service with proposals, what it named before (extended, or its inline parts kept; the
 * entries of the one an earlier --write saved, from `profiles`) plus the doctor's proposals, which win.
 */
export function profileWrites(report: DoctorReport, tenant: Tenant, profiles: ProfileTexts) {
  return (['publishing', 'lodging'] as const).flatMap((service) => {
    const gaps = report.operations
      .filter((op) => op.service === service)
      .flatMap((op) => op.fields.filter((f) => !f.found).map((f) => `${op.operation}.${f.need}`));
    // A stub names what is still not found: the profile is written for it too.
    const proposals = report.proposals[service] ?? (gaps.length > 0 ? {} : undefined);
    if (!proposals) return [];
    const ref = tenant[service]?.profile;
    const name = `${tenant.id}-${service}`;
    const saved = ref === name ? profiles.get(name) : undefined;
    const from = ref === name ? saved && parseProfileText(saved.text, saved.source) : ref;
    const base = typeof from === 'string' ? from : from?.extends;
    const inline: Partial<Record<string, OperationProfile>> =
      typeof from === 'object' ? from.operations : {};
    const operations: Record<string, unknown> = {};
    for (const op of new Set([...Object.keys(inline), ...Object.keys(proposals)]))
      operations[op] = compact(mergeOp(inline[op], proposals[op] ?? {}));
    const file = {
      $schema: '../profile.schema.json',
      service,
      description: `${tenant.name}'s ${service} API, as npm run doctor found it on ${report.at.slice(0, 10)}.${
        gaps.length > 0
          ? ` Not found yet: ${gaps.join(', ')}; settle each with npm run doctor -- ${tenant.id} --write --map <operation>.<need>=<path>.`
          : ''
      }`,
      ...(base && { extends: base }),
      operations,
    };
    return [{ service, name, text: `${JSON.stringify(file, null, 2)}\n` }];
  });
}

/** tenants.json text with the tenant's `<service>.profile` set to `name` (formatting kept). */
export function withProfileNamed(
  tenantsText: string,
  tenantIndex: number,
  service: ProfileService,
  name: string,
): string {
  const edits = modify(tenantsText, ['tenants', tenantIndex, service, 'profile'], name, {
    formattingOptions: { insertSpaces: true, tabSize: 2 },
  });
  return applyEdits(tenantsText, edits);
}
