const esc = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** Greedy word wrap for SVG text lines. */
function wrap(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && (line + ' ' + word).length > perLine) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.slice(0, maxLines);
}

export type SvgCard = {
  width: number;
  height: number;
  color: string;
  accent: string;
  kicker: string;
  title: string;
  footer: string;
};

/** Deterministic placeholder image: tenant colours, a kicker, the title, a footer line. */
export function svgCard(card: SvgCard): string {
  const { width: w, height: h } = card;
  const size = Math.round(w / 16);
  const lines = wrap(card.title, Math.floor((w * 1.7) / size), 6);
  const top = h * 0.35;
  const text = lines
    .map(
      (l, i) =>
        `<text x="${w * 0.07}" y="${top + i * size * 1.2}" font-size="${size}" font-weight="700" fill="#fff">${esc(l)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(card.title)}">
<rect width="${w}" height="${h}" fill="${card.color}"/>
<rect x="0" y="${h * 0.88}" width="${w}" height="${h * 0.12}" fill="${card.accent}"/>
<text x="${w * 0.07}" y="${h * 0.2}" font-family="Georgia, serif" font-size="${size * 0.6}" fill="${card.accent}">${esc(card.kicker)}</text>
<g font-family="Georgia, serif">${text}</g>
<text x="${w * 0.07}" y="${h * 0.95}" font-family="Arial, sans-serif" font-size="${size * 0.45}" fill="#111">${esc(card.footer)}</text>
</svg>`;
}

/** An e-paper page: masthead, headline and grey column blocks standing in for text. */
export function svgPage(card: SvgCard, page: number): string {
  const { width: w, height: h } = card;
  const cols = [0, 1, 2]
    .map((col) =>
      Array.from({ length: 14 }, (_, row) => {
        const len = 0.6 + (((page * 7 + col * 3 + row) * 37) % 40) / 100;
        return `<rect x="${80 + col * 360}" y="${520 + row * 70}" width="${320 * len}" height="22" fill="#ccc"/>`;
      }).join(''),
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(card.title)}, page ${page}">
<rect width="${w}" height="${h}" fill="#fbfaf6"/>
<rect x="0" y="0" width="${w}" height="180" fill="${card.color}"/>
<text x="80" y="120" font-family="Georgia, serif" font-size="90" font-weight="700" fill="#fff">${esc(card.kicker)}</text>
<text x="80" y="300" font-family="Georgia, serif" font-size="64" font-weight="700" fill="#111">${esc(wrap(card.title, 30, 1)[0] ?? '')}</text>
<text x="80" y="400" font-family="Georgia, serif" font-size="40" fill="${card.accent}">Page ${page}</text>
${cols}
<text x="${w - 80}" y="${h - 60}" text-anchor="end" font-family="Arial, sans-serif" font-size="32" fill="#555">${esc(card.footer)} · ${page}</text>
</svg>`;
}

/** A small deterministic hash, so every post gets its own scene. */
function hash(text: string): number {
  let h = 2166136261;
  for (const char of text) h = Math.imul(h ^ char.codePointAt(0)!, 16777619);
  return h >>> 0;
}

/**
 * A cover "photo" without words: sky, sun and three ridges in the tenant's colours, varied by the
 * title. Pages print the headline next to it, so the picture does not repeat it.
 */
export function svgScene(card: SvgCard): string {
  const { width: w, height: h } = card;
  const seed = hash(card.title);
  const pick = (shift: number, span: number) => (((seed >>> shift) % 1000) / 1000) * span;
  const ridge = (base: number, amplitude: number, shift: number) => {
    const points = Array.from({ length: 7 }, (_, i) => {
      const x = (w / 6) * i;
      const y = h * base - pick((shift + i * 3) % 24, h * amplitude);
      return `${Math.round(x)},${Math.round(y)}`;
    });
    return `0,${h} ${points.join(' ')} ${w},${h}`;
  };
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(card.title)}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${card.color}"/><stop offset="1" stop-color="#f4efe6"/></linearGradient></defs>
<rect width="${w}" height="${h}" fill="url(#sky)"/>
<circle cx="${Math.round(w * 0.15 + pick(2, w * 0.7))}" cy="${Math.round(h * 0.3)}" r="${Math.round(h * 0.09)}" fill="${card.accent}" opacity="0.85"/>
<polygon points="${ridge(0.62, 0.25, 1)}" fill="${card.color}" opacity="0.55"/>
<polygon points="${ridge(0.76, 0.2, 5)}" fill="${card.color}" opacity="0.8"/>
<polygon points="${ridge(0.9, 0.12, 9)}" fill="#1b1b1f" opacity="0.85"/>
</svg>`;
}
