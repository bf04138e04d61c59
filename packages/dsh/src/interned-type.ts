/**
 * A type as an interned string, the one a property key of that name is. A type read from a line is
 * a string of its own (JSON.parse interns only short values): handed on interned, the views' map
 * lookups and `===` of it compare by identity, not character by character.
 */
export const internedType = (type: string): string => Object.keys({ [type]: true })[0] ?? type;
