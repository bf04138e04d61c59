/**
 * What `JSON.stringify` calls for every key. It must map primitives only, give the same answer
 * when called again on its own answer (bigints to decimal strings does), and leave every value
 * that JSON.stringify can write without it unchanged: the pieces are written by JSON.stringify
 * without it, and only a piece JSON.stringify refuses (a bigint in it) is written again with it.
 * A piece's root is passed to it twice, once here with its key and once by JSON.stringify with the
 * empty key.
 */
export type JsonReplacer = (key: string, value: unknown) => unknown;

/** Containers at this depth are written whole: a replay document's bulk is an entry of a list (depth 3) of a team (2) in a list (1). */
const openDepth = 4;

/**
 * Entries of a list written whole are written this many to a piece: one JSON.stringify call per
 * run of entries, not per entry (a legacy mailbox has hundreds of thousands), and a piece stays
 * far below the document (a few tens of KB for legacy messages).
 */
const entriesPerPiece = 128;

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

/**
 * `JSON.stringify(value, replacer, 2)`: the native call without a replacer is several times
 * faster, and equal for every value it accepts (the replacer leaves those unchanged); one holding
 * a bigint it refuses with a TypeError, and only then is the replacer called.
 */
const stringify = (value: unknown, replacer: JsonReplacer): string | undefined => {
  try {
    return JSON.stringify(value, null, 2) as string | undefined;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, replacer, 2) as string | undefined;
  }
};

/** `JSON.stringify(value, replacer, 2)` of one value at `indent`: newlines never occur inside JSON strings, so re-indenting is exact. */
const whole = (value: unknown, replacer: JsonReplacer, indent: string): string | undefined => {
  const text = stringify(value, replacer);
  return text === undefined || indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
};

/** `[` lines opening `levels` nested lists, and the indent of their innermost entries. */
const opening = (levels: number): string => {
  let text = '';
  for (let level = 0; level < levels; level += 1) text += `${'  '.repeat(level)}[\n`;
  return text + '  '.repeat(levels);
};

const closing = (levels: number): string => {
  let text = '';
  for (let level = levels - 1; level >= 0; level -= 1) text += `\n${'  '.repeat(level)}]`;
  return text;
};

/**
 * Entries `from` to `to` of a list whose entries are written whole at `inner`, separated as
 * JSON.stringify separates them, without the brackets: the run is stringified nested in as many
 * lists as give its entries the indent `inner` has, so JSON.stringify indents them itself (and
 * writes `null` for an entry with no JSON text, as it does in any list).
 */
const entriesText = (list: readonly unknown[], from: number, to: number, replacer: JsonReplacer, inner: string) => {
  const levels = inner.length / 2;
  let nested: unknown = list.slice(from, to);
  for (let level = 1; level < levels; level += 1) nested = [nested];
  const text = stringify(nested, replacer) as string;
  return text.slice(opening(levels).length, text.length - closing(levels).length);
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
    if (depth + 1 >= openDepth) {
      for (let from = 0; from < value.length; from += entriesPerPiece) {
        const to = Math.min(value.length, from + entriesPerPiece);
        yield `${from === 0 ? '[\n' : ',\n'}${inner}${entriesText(value, from, to, replacer, inner)}`;
      }
      yield `\n${indent}]`;
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
 * element of the outer containers and one per run of entries of the lists below them, so a large
 * document (a replay's legacy mailbox) is written without ever being one string. Yields nothing
 * where JSON.stringify returns undefined.
 */
export function* jsonPieces(value: unknown, replacer: JsonReplacer): Generator<string, void, undefined> {
  yield* piecesOf(replacer('', value), replacer, '', 0);
}
