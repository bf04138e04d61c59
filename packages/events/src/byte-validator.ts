import type * as t from 'io-ts';
import { JsonObject, JsonValue } from './json-value';
import type { JsonByteWalk } from './json-byte-walk';
import { ObjectShapeCodec } from './strict-object';

/**
 * A codec's check run on the bytes of a JSON value (see JsonByteWalk), built once from the codec:
 * the position past a value the codec's `decode` accepts, or -1 when it is not sure (the caller
 * parses and decodes the value, which explains a refusal). Sound, not complete: it accepts only
 * values `JSON.parse` reads and the codec accepts.
 */
export type ByteValidator = (walk: JsonByteWalk, p: number) => number;

type Node = t.Decoder<unknown, unknown> & { readonly _tag?: string; readonly name: string };

const anyValue: ByteValidator = (walk, p) => walk.skipValue(p);
const anyObject: ByteValidator = (walk, p) => (walk.byteAt(p) === 0x7b ? walk.skipObject(p) : -1);
const anyString: ByteValidator = (walk, p) => walk.skipString(p);
const anyNumber: ByteValidator = (walk, p) => {
  const c = walk.byteAt(p);
  return c === 0x2d || (c >= 0x30 && c <= 0x39) ? walk.skipNumber(p) : -1;
};
const anyBoolean: ByteValidator = (walk, p) => {
  const c = walk.byteAt(p);
  return c === 0x74 || c === 0x66 ? walk.skipValue(p) : -1;
};
const onlyNull: ByteValidator = (walk, p) => (walk.byteAt(p) === 0x6e ? walk.skipValue(p) : -1);

const encoder = new TextEncoder();

/** A string literal whose JSON text is its bytes quoted (no escapes), matched as they are. */
const stringLiteral = (value: string): ByteValidator | undefined => {
  if (JSON.stringify(value) !== `"${value}"` || !/^[\x20-\x7e]*$/.test(value)) return undefined;
  const bytes = encoder.encode(value);
  return (walk, p) => (walk.isWord(p, bytes) ? p + bytes.length + 2 : -1);
};

/** A refinement of `t.number` (NonNegativeInteger and the like): its predicate on an integer read exactly. */
const refinedNumber =
  (predicate: (n: number) => boolean): ByteValidator =>
  (walk, p) => {
    const next = walk.integerAt(p);
    return next >= 0 && predicate(walk.integer) ? next : -1;
  };

const primitiveOf = (node: Node): ByteValidator | undefined => {
  switch (node._tag) {
    case 'StringType':
      return anyString;
    case 'NumberType':
      return anyNumber;
    case 'BooleanType':
      return anyBoolean;
    case 'NullType':
      return onlyNull;
    case 'UnknownType':
    case 'AnyType':
      return anyValue;
    case 'LiteralType': {
      const value = (node as unknown as t.LiteralType<string | number | boolean>).value;
      return typeof value === 'string' ? stringLiteral(value) : undefined;
    }
    case 'RefinementType': {
      const refinement = node as unknown as t.RefinementType<t.Mixed, unknown, unknown, unknown>;
      const base = (refinement.type as Node)._tag;
      return base === 'NumberType' ? refinedNumber(refinement.predicate as (n: number) => boolean) : undefined;
    }
    default:
      return undefined;
  }
};

interface Field {
  readonly key: Uint8Array;
  readonly check: ByteValidator;
  readonly required: boolean;
}

/** Declared keys that hold no quote or backslash and are ASCII, so they compare as bytes. */
const fieldsOf = (props: t.Props, required: boolean): Field[] | undefined => {
  const fields: Field[] = [];
  for (const [key, codec] of Object.entries(props)) {
    const check = byteValidatorOf(codec as Node);
    if (check === undefined || stringLiteral(key) === undefined) return undefined;
    fields.push({ key: encoder.encode(key), check, required });
  }
  return fields;
};

/** Fields a line may hold at most 32 of: each seen once is a bit of a mask. */
const maxFields = 31;

/**
 * An object with declared keys (openObject, strictObject, `t.type`, `t.partial`): each declared
 * key at most once (a repeated one: JSON.parse keeps the last, so not sure), every required one
 * present, an undeclared one refused by a strict object (not sure) and otherwise walked as any
 * value; a key with an escape is not compared (not sure).
 */
const objectOf = (fields: readonly Field[], extraKeys: 'refused' | 'kept'): ByteValidator | undefined => {
  if (fields.length > maxFields) return undefined;
  let requiredMask = 0;
  fields.forEach((field, index) => {
    if (field.required) requiredMask |= 1 << index;
  });
  return (walk, p) => {
    if (walk.byteAt(p) !== 0x7b || walk.depthLeft <= 0) return -1;
    walk.depthLeft -= 1;
    let seen = 0;
    let at = walk.skipSpace(p + 1);
    if (walk.byteAt(at) !== 0x7d) {
      for (;;) {
        const keyEnd = walk.skipPlainString(at);
        if (keyEnd < 0) return -1;
        let index = 0;
        while (index < fields.length && !walk.isWord(at, (fields[index] as Field).key)) index += 1;
        at = walk.skipColon(keyEnd);
        if (at < 0) return -1;
        if (index < fields.length) {
          const bit = 1 << index;
          if ((seen & bit) !== 0) return -1;
          seen |= bit;
          at = (fields[index] as Field).check(walk, at);
        } else at = extraKeys === 'kept' ? walk.skipValue(at) : -1;
        if (at < 0) return -1;
        at = walk.skipSpace(at);
        const c = walk.byteAt(at);
        if (c === 0x7d) break;
        if (c !== 0x2c) return -1;
        at = walk.skipSpace(at + 1);
      }
    }
    if ((seen & requiredMask) !== requiredMask) return -1;
    walk.depthLeft += 1;
    return at + 1;
  };
};

const arrayOf =
  (item: ByteValidator): ByteValidator =>
  (walk, p) => {
    if (walk.byteAt(p) !== 0x5b || walk.depthLeft <= 0) return -1;
    walk.depthLeft -= 1;
    let at = walk.skipSpace(p + 1);
    if (walk.byteAt(at) !== 0x5d) {
      for (;;) {
        at = item(walk, at);
        if (at < 0) return -1;
        at = walk.skipSpace(at);
        const c = walk.byteAt(at);
        if (c === 0x5d) break;
        if (c !== 0x2c) return -1;
        at = walk.skipSpace(at + 1);
      }
    }
    walk.depthLeft += 1;
    return at + 1;
  };

/** A union: the first member shown to accept (any member accepting is the union's verdict). */
const unionOf =
  (members: readonly ByteValidator[]): ByteValidator =>
  (walk, p) => {
    const depth = walk.depthLeft;
    for (const member of members) {
      const next = member(walk, p);
      if (next >= 0) return next;
      walk.depthLeft = depth;
    }
    return -1;
  };

const compositeOf = (node: Node): ByteValidator | undefined => {
  if (node === JsonValue) return anyValue;
  if (node === JsonObject) return anyObject;
  if (node instanceof ObjectShapeCodec) {
    const required = fieldsOf(node.required, true);
    const optional = fieldsOf(node.optional, false);
    return required === undefined || optional === undefined
      ? undefined
      : objectOf([...required, ...optional], node.extraKeys);
  }
  switch (node._tag) {
    case 'InterfaceType': {
      const fields = fieldsOf((node as unknown as t.InterfaceType<t.Props>).props, true);
      return fields === undefined ? undefined : objectOf(fields, 'kept');
    }
    case 'PartialType': {
      const fields = fieldsOf((node as unknown as t.PartialType<t.Props>).props, false);
      return fields === undefined ? undefined : objectOf(fields, 'kept');
    }
    case 'ExactType':
    case 'ReadonlyType':
      return byteValidatorOf((node as unknown as { type: Node }).type);
    case 'ArrayType':
    case 'ReadonlyArrayType': {
      const item = byteValidatorOf((node as unknown as t.ArrayType<t.Mixed>).type as Node);
      return item === undefined ? undefined : arrayOf(item);
    }
    case 'UnionType': {
      const members = ((node as unknown as t.UnionType<t.Mixed[]>).types as Node[]).map(byteValidatorOf);
      return members.some((member) => member === undefined) ? undefined : unionOf(members as ByteValidator[]);
    }
    default:
      return undefined;
  }
};

/**
 * The byte validator of a codec, or undefined when the codec has a node it does not express
 * (a tagged union, an intersection, a tuple, a refinement of a string, a custom type): a value of
 * such a codec is always parsed and decoded.
 */
export const byteValidatorOf = (codec: t.Decoder<unknown, unknown>): ByteValidator | undefined =>
  primitiveOf(codec as Node) ?? compositeOf(codec as Node);
