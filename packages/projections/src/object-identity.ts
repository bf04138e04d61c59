const identities = new WeakMap<object, number>();
let nextIdentity = 0;

/**
 * A number per object, so a kept read can tell a replaced object (a map, a fold's state) from the
 * one it read before, even when both hold the same number of entries.
 */
export const identityOf = (object: object): number => {
  const known = identities.get(object);
  if (known !== undefined) return known;
  nextIdentity += 1;
  identities.set(object, nextIdentity);
  return nextIdentity;
};
