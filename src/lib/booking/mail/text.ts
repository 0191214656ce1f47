/** HTML-escapes text for an e-mail's HTML part. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A short e-mail from its lines, after a greeting when there is a name and before the site's
 * signature: the plain-text part as they are, the HTML part one paragraph each (an address in a
 * line becomes a link).
 */
export function textMail(
  greeting: string,
  body: readonly string[],
  footer: string,
): { text: string; html: string } {
  const lines = [...(greeting ? [greeting, ''] : []), ...body, '', '-- ', footer];
  const text = lines.join('\n');
  const html = lines
    .filter((line) => line !== '')
    .map((line) => {
      const escaped = escapeHtml(line).replace(
        /https?:\/\/[^\s<>&"']+/g,
        (url) => `<a href="${url}">${url}</a>`,
      );
      return `<p>${escaped}</p>`;
    })
    .join('\n');
  return { text, html };
}
