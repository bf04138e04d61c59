import * as fc from 'fast-check';
import type * as t from 'io-ts';
import { isRight } from 'fp-ts/Either';
import {
  JsonByteWalk,
  JsonValue,
  NonNegativeInteger,
  byteValidatorOf,
  catalogEventTypes,
  eventCodecs,
  openObject,
  strictObject,
} from '@teamlog/events';

/*
 * A byte validator is sound: a JSON text it accepts, JSON.parse reads and the codec accepts. Checked
 * on values generated for every catalog codec it expresses (valid ones, and arbitrary JSON), with
 * spacing, repeated keys and odd numbers, with fixed seeds.
 */

const accepts = (codec: t.Decoder<unknown, unknown>, text: string, maxDepth = 64): boolean => {
  const validator = byteValidatorOf(codec);
  if (validator === undefined) return false;
  const bytes = Buffer.from(text);
  const walk = new JsonByteWalk();
  walk.reset(bytes, bytes.length, maxDepth);
  const end = validator(walk, walk.skipSpace(0));
  return end >= 0 && walk.skipSpace(end) === bytes.length;
};

const parsedAccepts = (codec: t.Decoder<unknown, unknown>, text: string): boolean => {
  try {
    return isRight(codec.decode(JSON.parse(text)));
  } catch {
    return false;
  }
};

describe('a byte validator built from a codec', () => {
  const StepLike = openObject({ turn: NonNegativeInteger, step: NonNegativeInteger }, {}, 'StepLike');
  const Strict = strictObject({ turn: NonNegativeInteger }, { note: JsonValue }, 'Strict');

  it('accepts only texts JSON.parse reads and the codec accepts (every catalog codec it expresses, generated values)', () => {
    const codecs = [
      ...catalogEventTypes.map((type) => eventCodecs[type] as t.Decoder<unknown, unknown>),
      StepLike,
      Strict,
      JsonValue,
    ].filter((codec) => byteValidatorOf(codec) !== undefined);
    expect(codecs.length).toBeGreaterThan(3);
    const number = fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.constantFrom(-0, 2 ** 53 + 2, 1e21));
    const value = fc.oneof(
      fc.jsonValue(),
      fc.record({ turn: number, step: number, note: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record({ turn: fc.nat(), reason: fc.record({ kind: fc.constantFrom('completed', 'x') }) }),
    );
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 2, '\t'), (generated, space) => {
        const text = JSON.stringify(generated, null, space);
        for (const codec of codecs) if (accepts(codec, text)) expect(parsedAccepts(codec, text)).toBe(true);
      }),
      { seed: 7, numRuns: 2000 },
    );
  });

  it('reads the usual value, and is not sure of repeated keys, undeclared keys of a strict object, odd numbers or nesting past its limit', () => {
    expect(accepts(StepLike, '{"turn":1,"step":2,"x":[{"y":null}]}')).toBe(true);
    expect(accepts(Strict, '{ "turn" : 0 , "note" : {"a":[1,"\\u00e9"]} }')).toBe(true);
    for (const text of [
      '{"turn":1,"step":2,"step":3}',
      '{"turn":1,"step":-2}',
      '{"turn":1,"step":2.0}',
      '{"turn":1,"step":1e0}',
      '{"turn":1,"st\\u0065p":2}',
      '{"turn":1}',
      '{"turn":01,"step":2}',
      '{"turn":1,"step":2,}',
    ])
      expect([text, accepts(StepLike, text)]).toEqual([text, false]);
    expect(accepts(Strict, '{"turn":1,"other":2}')).toBe(false);
    expect(accepts(JsonValue, '[[[]]]', 3)).toBe(true);
    expect(accepts(JsonValue, '[[[[]]]]', 3)).toBe(false);
  });
});
