import type { Rng } from '../lib/prng.ts';
import type { Theme } from './themes.ts';

/** Placeholder for the mock's listening origin, replaced when a response is written. */
export const ORIGIN = '__MOCK_ORIGIN__';

/** URL slug as Laravel's Str::slug makes it. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’']/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Fills `{place}`, `{person}` and `{n}` from the theme. */
export function fill(rng: Rng, theme: Theme, template: string): string {
  const text = template
    .replaceAll('{place}', () => rng.pick(theme.places))
    .replaceAll('{person}', () => rng.pick(theme.people))
    .replaceAll('{n}', () => String(rng.int(3, 60)));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const paragraph = (rng: Rng, theme: Theme, sentences = rng.int(3, 4)): string =>
  Array.from({ length: sentences }, () => fill(rng, theme, rng.pick(theme.sentences))).join(' ');

/** Markup a sanitizer must strip; each piece would set document.title if it ran. */
export const DANGEROUS = [
  `<script>document.title='XSS'</script>`,
  `<p><img src="${ORIGIN}/media/broken.svg" onerror="document.title='XSS'" alt="broken"></p>`,
  `<p>Read the <a href="javascript:document.title='XSS'">full statement</a> here.</p>`,
  `<iframe src="https://evil.example/embed" width="600" height="400"></iframe>`,
];

const escape = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Rich blocks a renderer must handle: lists, figure, table, quote, code. */
function richBlock(rng: Rng, theme: Theme, tenant: string, slug: string, n: number): string {
  switch (rng.int(0, 5)) {
    case 0:
      return `<ul>${rng
        .sample(theme.places, 3)
        .map((p) => `<li>${p}</li>`)
        .join('')}</ul>`;
    case 1:
      return `<ol><li>${paragraph(rng, theme, 1)}</li><li>${paragraph(rng, theme, 1)}</li><li>${paragraph(rng, theme, 1)}</li></ol>`;
    case 2:
      return `<figure><img src="${ORIGIN}/media/${tenant}/figures/${slug}-${n}.svg" alt="${escape(rng.pick(theme.places))}" width="1200" height="800"><figcaption>${escape(paragraph(rng, theme, 1))}</figcaption></figure>`;
    case 3: {
      const rows = rng
        .sample(theme.places, 3)
        .map(
          (p) => `<tr><td>${p}</td><td>${rng.int(10, 900)}</td><td>${rng.int(-20, 40)}%</td></tr>`,
        )
        .join('');
      return `<table><thead><tr><th>Area</th><th>Count</th><th>Change</th></tr></thead><tbody>${rows}</tbody></table>`;
    }
    case 4:
      return `<blockquote><p>${escape(rng.pick(theme.quotes))}</p><cite>${rng.pick(theme.people)}</cite></blockquote>`;
    default:
      return `<p>The data team used this query:</p><pre><code>SELECT area, COUNT(*) FROM reports WHERE year = ${rng.int(2019, 2026)} GROUP BY area;</code></pre>`;
  }
}

/** Article HTML: paragraphs, a subhead, one or two rich blocks, optionally a dangerous piece. */
export function articleHtml(
  rng: Rng,
  theme: Theme,
  tenant: string,
  slug: string,
  lead: string,
  dangerous: string | null,
): string {
  const parts = [`<p>${escape(lead)}</p>`, `<p>${paragraph(rng, theme)}</p>`];
  parts.push(`<h2>${rng.pick(theme.subheads)}</h2>`, `<p>${paragraph(rng, theme)}</p>`);
  parts.push(richBlock(rng, theme, tenant, slug, 1));
  if (dangerous) parts.push(dangerous);
  if (rng.chance(0.5))
    parts.push(`<h3>${rng.pick(theme.subheads)}</h3>`, richBlock(rng, theme, tenant, slug, 2));
  parts.push(`<p>${paragraph(rng, theme, 2)}</p>`);
  return parts.join('\n');
}
