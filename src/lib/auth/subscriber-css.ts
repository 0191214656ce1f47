import { standing } from './account.ts';
import type { SignedIn } from './session.ts';

/**
 * Who is signed in, told to a shared public page without JavaScript and without making it private:
 * every page links `/reader.css`, a tiny private stylesheet. For a guest it is empty; for a subscriber
 * it shows the `.when-member` parts, hides the `.when-guest` ones (and the `.when-unsubscribed` ones
 * from an account that reads everything already) and writes the name into `.reader-name`.
 */
export function subscriberCss(user: SignedIn['user'] | null): string {
  if (user === null) return '';
  return [
    '.when-guest{display:none!important}',
    '.when-member{display:revert!important}',
    ...(standing(user) === 'free' ? [] : ['.when-unsubscribed{display:none!important}']),
    `.reader-name::before{content:"${cssString(user.name)}"}`,
  ].join('');
}

/** Escapes everything but letters, digits and spaces, so a name can never end the CSS string. */
export function cssString(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[^\p{L}\p{N} ]/gu, (char) => `\\${(char.codePointAt(0) ?? 0).toString(16)} `);
}
