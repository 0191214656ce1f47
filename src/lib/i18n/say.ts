/** Texts an island says in the browser: messages the page passed as JSON, plurals and numbers by the locale. */
type Message = string | ({ other: string } & { [R in Intl.LDMLPluralRule]?: string | undefined });

export type Say = (key: string, values?: Record<string, string | number>) => string;

export function sayer(text: Record<string, Message>, locale: string): Say {
  const plurals = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  return (key, values = {}) => {
    const message = text[key] ?? key;
    const count = values['count'];
    const chosen =
      typeof message === 'string'
        ? message
        : (message[typeof count === 'number' ? plurals.select(count) : 'other'] ?? message.other);
    return chosen.replace(/\{(\w+)\}/g, (match, name: string) => {
      const value = values[name];
      if (value === undefined) return match;
      return typeof value === 'number' ? numbers.format(value) : value;
    });
  };
}
