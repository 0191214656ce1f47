import type { DoctorReport } from './report.ts';
import { targetLine } from './target.ts';

/** The doctor's report as lines for a terminal (never a token: the report holds none). */
export function doctorLines(report: DoctorReport): string[] {
  const lines: string[] = [
    `Doctor for tenant "${report.tenant}" (${report.calls} upstream calls)`,
    ...(report.services ?? []).map(targetLine),
  ];
  for (const op of report.operations) {
    const rate = op.rateLimit['x-ratelimit-remaining']
      ? ` · rate limit ${op.rateLimit['x-ratelimit-remaining']}/${op.rateLimit['x-ratelimit-limit'] ?? '?'} left`
      : ' · no rate-limit headers';
    const head = op.notAt
      ? `${op.service} ${op.operation}: ${op.method} ${op.notAt} → 404, found at ${op.path ?? '?'} (proposed)`
      : `${op.service} ${op.operation}: ${op.method} ${op.path ?? '?'}`;
    // Every path tried, when the first was not the one: what the search looked at.
    const tried =
      op.tried && op.tried.length > 1
        ? [`    tried: ${op.tried.map((t) => `${t.path} ${t.status}`).join(', ')}`]
        : [];
    if (op.skipped) {
      lines.push(`- ${head} · skipped: ${op.skipped}`, ...tried);
      continue;
    }
    // Why is said once, below, for all the operations answered alike.
    if (!op.reachable) {
      lines.push(`✗ ${head} · not reachable`, ...tried);
      continue;
    }
    if (op.hint) {
      lines.push(`✗ ${head} → ${op.status ?? '-'}`);
      continue;
    }
    const envelope = op.envelope.at
      ? ` · envelope ${op.envelope.at}${op.envelope.recognised ? '' : ' (proposed)'}`
      : ' · envelope not found';
    const readable = op.status !== undefined && op.status < 300 && op.fields.every((f) => f.found);
    const asIs =
      readable && !op.notAt && op.envelope.recognised && !op.fields.some((f) => f.proposed);
    // ✓ readable as configured, ~ readable with the proposed entries, ✗ not readable.
    const mark = asIs ? '✓' : readable ? '~' : '✗';
    lines.push(`${mark} ${head}${op.notAt ? '' : ` → ${op.status ?? '-'}`}${envelope}${rate}`);
    lines.push(...tried);
    for (const field of op.fields) {
      const also = field.alternatives?.length
        ? ` · also fits: ${field.alternatives.join(', ')}`
        : '';
      const where = field.found
        ? `${field.path}${field.proposed ? ' (proposed)' : ''}${field.sample === undefined ? '' : ` = ${field.sample}`}${also}`
        : 'not found';
      lines.push(`    ${field.found ? (field.proposed ? '~' : '✓') : '✗'} ${field.need}: ${where}`);
    }
    if (op.issues) lines.push(`    the site's schema says: ${op.issues}`);
    const gaps = op.fields.filter((f) => !f.found).map((f) => f.need);
    if (gaps.length > 0 && op.shape) {
      // What the answer has, beside what was not found: a person settles it with --map.
      lines.push(
        `    not decided: ${gaps.join(', ')}; the answer has (first record):`,
        ...op.shape.map((line) => `      ${line}`),
        `    settle with: npm run doctor -- ${report.tenant} ${gaps.map((g) => `--map ${op.operation}.${g}=<path>`).join(' ')}`,
      );
    }
  }
  const services = Object.entries(report.proposals);
  if (services.length > 0) {
    lines.push(
      '',
      'Proposed profile entries (--write saves them to profiles/<tenant>-<service>.json):',
    );
    for (const [service, operations] of services) {
      lines.push(`${service}: ${JSON.stringify(operations, null, 2)}`);
    }
  }
  const list = (heading: string, items: string[]) =>
    `${heading} (${items.length}):\n${items.map((u) => `  - ${u}`).join('\n')}`;
  if (report.toFix.length > 0) lines.push('', list('To fix', report.toFix));
  lines.push(
    '',
    report.unmapped.length === 0
      ? 'Every operation and field the site needs is readable.'
      : list('Not readable yet', report.unmapped),
  );
  return lines;
}
