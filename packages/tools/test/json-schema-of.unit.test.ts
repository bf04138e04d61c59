import * as t from 'io-ts';
import { NonEmptyString, PositiveInteger, SessionId, TaskStatus } from '@teamlog/events';
import { jsonSchemaOf } from '@teamlog/tools';
import { described } from '../src/described-type';
import { refinementSchemas } from '../src/refinement-schemas';
import { strictObjectType } from '../src/strict-object-type';
import { schemaCheck } from './schema-check';

describe('jsonSchemaOf: io-ts codecs to JSON Schema', () => {
  it('given a strict object, then required keys are required, optional ones are not, and no other key is allowed', () => {
    const codec = strictObjectType({ a: t.string }, { b: t.number }, 'AB');
    expect(jsonSchemaOf(codec)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a'],
      additionalProperties: false,
    });
    expect(codec.is({ a: 'x', c: 1 })).toBe(false);
  });

  it('given a strict object with no required key, then the schema has no required list', () => {
    expect(jsonSchemaOf(strictObjectType({}, { b: t.boolean }))).toEqual({
      type: 'object',
      properties: { b: { type: 'boolean' } },
      additionalProperties: false,
    });
  });

  it('given primitives, literals, keyof, unions and arrays, then each maps to its JSON Schema keyword', () => {
    expect(jsonSchemaOf(t.null)).toEqual({ type: 'null' });
    expect(jsonSchemaOf(t.literal('x'))).toEqual({ type: 'string', const: 'x' });
    expect(jsonSchemaOf(t.literal(2))).toEqual({ type: 'number', const: 2 });
    expect(jsonSchemaOf(t.literal(true))).toEqual({ type: 'boolean', const: true });
    expect(jsonSchemaOf(TaskStatus)).toEqual({
      type: 'string',
      enum: ['pending', 'in_progress', 'completed', 'deleted'],
    });
    expect(jsonSchemaOf(t.union([t.string, t.null]))).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(jsonSchemaOf(t.array(t.boolean))).toEqual({ type: 'array', items: { type: 'boolean' } });
    expect(jsonSchemaOf(t.readonlyArray(t.string))).toEqual({ type: 'array', items: { type: 'string' } });
  });

  it('given a described codec, then its description is on its schema and it validates as the codec it wraps', () => {
    const codec = described(NonEmptyString, 'A name.');
    expect(jsonSchemaOf(codec)).toEqual({ type: 'string', minLength: 1, description: 'A name.' });
    expect(codec.is('')).toBe(false);
    expect(codec.is('x')).toBe(true);
  });

  it('given a listed refinement, then its keywords refine the base schema (an integer for PositiveInteger)', () => {
    expect(jsonSchemaOf(SessionId)).toEqual({ type: 'string', minLength: 1 });
    expect(jsonSchemaOf(PositiveInteger)).toEqual({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
  });

  it('given a refinement that is not listed, then the converter refuses instead of dropping the predicate', () => {
    const Even = t.refinement(t.number, (n) => n % 2 === 0, 'Even');
    expect(() => jsonSchemaOf(Even)).toThrow(expect.objectContaining({ code: 'UnsupportedCodec' }));
    expect(() => jsonSchemaOf(strictObjectType({ n: Even }))).toThrow('no JSON Schema for codec Even');
  });

  it('given a codec kind it does not translate (an io-ts object that strips unknown keys), then it refuses', () => {
    expect(() => jsonSchemaOf(t.type({ a: t.string }))).toThrow(expect.objectContaining({ code: 'UnsupportedCodec' }));
    expect(() => jsonSchemaOf(t.unknown)).toThrow(expect.objectContaining({ code: 'UnsupportedCodec' }));
  });

  it("given each listed refinement, then its schema accepts exactly the samples its codec accepts (checked by the SDK's validator)", () => {
    const samples: readonly unknown[] = [
      '',
      'x',
      0,
      1,
      -1,
      1.5,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 2,
      null,
    ];
    for (const codec of refinementSchemas.keys()) {
      const bySchema = schemaCheck(jsonSchemaOf(codec));
      expect(samples.map((sample) => [codec.name, sample, bySchema(sample)])).toEqual(
        samples.map((sample) => [codec.name, sample, codec.is(sample)]),
      );
    }
  });
});
