import { memo } from '../memo.ts';

/**
 * A number per object, for as long as it lives: keys of things made from an object (a page part, a
 * picture) that must change when the object is replaced, without holding the object.
 */
let lastId = 0;

export const objectId: (value: object) => number = memo(() => (lastId += 1));
