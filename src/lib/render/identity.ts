/**
 * A number per object, for as long as it lives: keys of things made from an object (a page part, a
 * picture) that must change when the object is replaced, without holding the object.
 */
const ids = new WeakMap<object, number>();
let lastId = 0;

export function objectId(value: object): number {
  let id = ids.get(value);
  if (id === undefined) {
    lastId += 1;
    id = lastId;
    ids.set(value, id);
  }
  return id;
}
