import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';

/**
 * A `strictObject` or `openObject` codec, carrying its declared keys so a validator can be compiled
 * from it (compiled-validator.ts): `extraKeys` says whether undeclared keys are refused.
 */
export class ObjectShapeCodec<A, O> extends t.Type<A, O, unknown> {
  constructor(
    name: string,
    is: t.Is<A>,
    validate: t.Validate<unknown, A>,
    encode: t.Encode<A, O>,
    readonly required: t.Props,
    readonly optional: t.Props,
    readonly extraKeys: 'refused' | 'kept',
  ) {
    super(name, is, validate, encode);
  }
}

/**
 * An object codec that refuses keys it does not declare, as the reference format's strict codecs
 * do (io-ts `exact` would silently strip them, which would hide a schema break).
 */
export const strictObject = <R extends t.Props, O extends t.Props = {}>(
  required: R,
  optional: O = {} as O,
  name = 'StrictObject',
): t.Type<t.TypeOfProps<R> & t.TypeOfPartialProps<O>, t.OutputOfProps<R> & t.OutputOfPartialProps<O>, unknown> => {
  const shape = t.intersection([t.type(required), t.partial(optional)]);
  const allowed = new Set([...Object.keys(required), ...Object.keys(optional)]);
  return new ObjectShapeCodec(
    name,
    (u): u is t.TypeOfProps<R> & t.TypeOfPartialProps<O> =>
      shape.is(u) && Object.keys(u as object).every((key) => allowed.has(key)),
    (u, c) => {
      const decoded = shape.validate(u, [...c, { key: '', type: shape, actual: u }]);
      if (isLeft(decoded)) return decoded;
      const extra = Object.keys(u as object).find((key) => !allowed.has(key));
      if (extra !== undefined) {
        return t.failure(
          (u as Record<string, unknown>)[extra],
          [...c, { key: extra, type: t.never, actual: (u as Record<string, unknown>)[extra] }],
          `unexpected key "${extra}" (not part of ${name})`,
        );
      }
      for (const key of Object.keys(optional)) {
        if (key in (u as object) && (u as Record<string, unknown>)[key] === undefined) {
          return t.failure(undefined, [...c, { key, type: optional[key] as t.Any, actual: undefined }]);
        }
      }
      return t.success(u as t.TypeOfProps<R> & t.TypeOfPartialProps<O>);
    },
    (a) => shape.encode(a),
    required,
    optional,
    'refused',
  );
};

/** An object codec that checks the declared keys and keeps every other key as it was. */
export const openObject = <R extends t.Props, O extends t.Props = {}>(
  required: R,
  optional: O = {} as O,
  name = 'OpenObject',
): t.Type<t.TypeOfProps<R> & t.TypeOfPartialProps<O> & { readonly [key: string]: unknown }, unknown, unknown> => {
  const shape = t.intersection([t.type(required), t.partial(optional)]);
  return new ObjectShapeCodec(
    name,
    (u): u is t.TypeOfProps<R> & t.TypeOfPartialProps<O> => shape.is(u),
    (u, c) => {
      const decoded = shape.validate(u, [...c, { key: '', type: shape, actual: u }]);
      return isLeft(decoded) ? decoded : t.success(u as t.TypeOfProps<R> & t.TypeOfPartialProps<O>);
    },
    t.identity,
    required,
    optional,
    'kept',
  );
};
