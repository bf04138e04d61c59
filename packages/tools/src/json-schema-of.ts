import * as t from 'io-ts';
import { BoundedTextType } from './bounded-text';
import { DescribedType } from './described-type';
import type { JsonSchema } from './json-schema';
import { refinementSchemas } from './refinement-schemas';
import { StrictObjectType } from './strict-object-type';
import { ToolError } from './tool-errors';

type Refinements = ReadonlyMap<t.Mixed, JsonSchema>;

const objectSchema = (codec: StrictObjectType<t.Props, t.Props>, refinements: Refinements): JsonSchema => {
  const required = Object.keys(codec.required);
  const properties = Object.fromEntries(
    [...Object.entries(codec.required), ...Object.entries(codec.optional)].map(([key, type]) => [
      key,
      jsonSchemaOf(type, refinements),
    ]),
  );
  return { type: 'object', properties, ...(required.length === 0 ? {} : { required }), additionalProperties: false };
};

const literalSchema = (value: string | number | boolean): JsonSchema => ({
  type: typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'boolean',
  const: value,
});

const refinementSchema = (codec: t.RefinementType<t.Mixed>, refinements: Refinements): JsonSchema => {
  const keywords = refinements.get(codec);
  if (keywords === undefined)
    throw new ToolError({
      code: 'UnsupportedCodec',
      codecName: codec.name,
      detail: 'its predicate is not listed in the refinement schemas',
    });
  return { ...jsonSchemaOf(codec.type, refinements), ...keywords };
};

/**
 * The JSON Schema of a codec, for the codec kinds the Team tools use: strict objects, described
 * types, bounded texts, string, number, boolean, null, literals, keyof, unions, arrays and listed refinements.
 * Anything else is refused rather than approximated, so a schema never accepts what its codec refuses.
 */
export const jsonSchemaOf = (codec: t.Mixed, refinements: Refinements = refinementSchemas): JsonSchema => {
  if (codec instanceof StrictObjectType) return objectSchema(codec, refinements);
  if (codec instanceof DescribedType)
    return { ...jsonSchemaOf(codec.type, refinements), description: codec.description };
  if (codec instanceof BoundedTextType)
    return { type: 'string', minLength: codec.minLength, maxLength: codec.maxLength };
  if (codec instanceof t.StringType) return { type: 'string' };
  if (codec instanceof t.NumberType) return { type: 'number' };
  if (codec instanceof t.BooleanType) return { type: 'boolean' };
  if (codec instanceof t.NullType) return { type: 'null' };
  if (codec instanceof t.LiteralType) return literalSchema(codec.value);
  if (codec instanceof t.KeyofType) return { type: 'string', enum: Object.keys(codec.keys) };
  if (codec instanceof t.UnionType)
    return { anyOf: codec.types.map((member: t.Mixed) => jsonSchemaOf(member, refinements)) };
  if (codec instanceof t.ArrayType || codec instanceof t.ReadonlyArrayType)
    return { type: 'array', items: jsonSchemaOf(codec.type, refinements) };
  if (codec instanceof t.RefinementType) return refinementSchema(codec, refinements);
  throw new ToolError({
    code: 'UnsupportedCodec',
    codecName: codec.name,
    detail: 'the converter does not translate this kind of codec',
  });
};
