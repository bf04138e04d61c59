/**
 * What `JSON.stringify` calls for every key. It must map primitives only and give the same answer
 * when called again on its own answer (bigints to decimal strings does): a piece's root is passed
 * to it twice, once here with its key and once by JSON.stringify with the empty key.
 */
export type JsonReplacer = (key: string, value: unknown) => unknown;

/** Containers at this depth are written whole: a replay document's bulk is an entry of a list (depth 3) of a team (2) in a list (1). */
const openDepth = 4;

const isOpenable = (value: unknown): value is Record<string, unknown> | unknown[] => {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  // A toJSON (a Date) decides its own text: written whole, as JSON.stringify would.
  return (
    (prototype === Object.prototype || prototype === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
};

/** `JSON.stringify(value, replacer, 2)` of one value at `indent`: newlines never occur inside JSON strings, so re-indenting is exact. */
const whole = (value: unknown, replacer: JsonReplacer, indent: string): string | undefined => {
  const text = JSON.stringify(value, replacer, 2) as string | undefined;
  return text === undefined || indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
};

function* piecesOf(
  value: unknown,
  replacer: JsonReplacer,
  indent: string,
  depth: number,
): Generator<string, boolean, undefined> {
  if (depth >= openDepth || !isOpenable(value)) {
    const text = whole(value, replacer, indent);
    if (text === undefined) return false;
    yield text;
    return true;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return true;
    }
    for (let index = 0; index < value.length; index += 1) {
      yield index === 0 ? `[\n${inner}` : `,\n${inner}`;
      const element = replacer(String(index), value[index]);
      // An element JSON has no text for (undefined, a function) is written as null, as JSON.stringify does.
      if (!(yield* piecesOf(element, replacer, inner, depth + 1))) yield 'null';
    }
    yield `\n${indent}]`;
    return true;
  }
  let members = 0;
  for (const key of Object.keys(value)) {
    const member = replacer(key, value[key]);
    if (!isOpenable(member) || depth + 1 >= openDepth) {
      const text = whole(member, replacer, inner);
      if (text === undefined) continue; // a member with no JSON text is left out
      yield `${members === 0 ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: ${text}`;
    } else {
      yield `${members === 0 ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `;
      yield* piecesOf(member, replacer, inner, depth + 1);
    }
    members += 1;
  }
  yield members === 0 ? '{}' : `\n${indent}}`;
  return true;
}

/**
 * The text of `JSON.stringify(value, replacer, 2)`, byte for byte, in pieces: one per member or
 * element of the outer containers, so a large document (a replay's legacy mailbox) is written
 * without ever being one string. Yields nothing where JSON.stringify returns undefined.
 */
export function* jsonPieces(value: unknown, replacer: JsonReplacer): Generator<string, void, undefined> {
  yield* piecesOf(replacer('', value), replacer, '', 0);
}
