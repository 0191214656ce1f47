/** Characters that show nothing: zero-width spaces and joiners, the byte-order mark, direction controls. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069]/g;

/** Whether a typed text shows nothing: empty, spaces, or invisible characters only. */
export const isBlank = (text: string): boolean => text.replace(INVISIBLE, '').trim() === '';
