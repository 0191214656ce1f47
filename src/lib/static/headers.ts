import { escapeHtml } from '../content/escape.ts';

/**
 * A static copy has no server to send the live site's security headers: each page carries its
 * Content-Security-Policy as a `<meta http-equiv>` (browsers apply it to everything after it), and
 * `_headers` (Netlify, Cloudflare Pages and hosts that read that format) repeats every header.
 */

/** Headers of the live site that a static host should send too. */
const KEPT = [
  'content-security-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
];

/** Directives a `<meta>` policy cannot carry (browsers ignore them there, with a console error). */
const HEADER_ONLY = /^(frame-ancestors|report-uri|report-to|sandbox)\b/i;

export function securityHeaders(headers: Headers): [string, string][] {
  return KEPT.flatMap((name): [string, string][] => {
    const value = headers.get(name);
    return value ? [[name, value]] : [];
  });
}

/** The page with its policy as the first element of `<head>`; unchanged without a policy or head. */
export function withPolicyMeta(html: string, policy: string | null): string {
  if (!policy) return html;
  const content = policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive && !HEADER_ONLY.test(directive))
    .join('; ');
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head || !content) return html;
  const at = head.index + head[0].length;
  const meta = `<meta http-equiv="content-security-policy" content="${escapeHtml(content)}">`;
  return html.slice(0, at) + meta + html.slice(at);
}

/** `_headers`: one block per page path with the headers the live site sent for it. */
export function headersFile(pages: ReadonlyArray<{ path: string; headers: [string, string][] }>) {
  return pages
    .filter((page) => page.headers.length > 0)
    .map(
      (page) =>
        `${page.path}\n${page.headers.map(([name, value]) => `  ${name}: ${value}`).join('\n')}\n`,
    )
    .join('\n');
}
