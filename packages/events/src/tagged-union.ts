import * as t from 'io-ts';

/** A `taggedUnion` codec, carrying its tag, members and fallback so a validator can be compiled from it. */
export class TaggedUnionCodec<A> extends t.Type<A, unknown, unknown> {
  constructor(
    name: string,
    is: t.Is<A>,
    validate: t.Validate<unknown, A>,
    encode: t.Encode<A, unknown>,
    readonly tag: string,
    readonly members: Readonly<Record<string, t.Mixed>>,
    readonly fallback: t.Mixed,
  ) {
    super(name, is, validate, encode);
  }
}

/**
 * A union chosen by one tag field. A known tag must decode with its own codec (so a malformed
 * `team-relay` source is an error, not an "unknown kind"); any other tag falls to `fallback`,
 * which keeps the value with all its fields.
 */
export const taggedUnion = <K extends string, M extends Record<string, t.Mixed>, F extends t.Mixed>(
  tag: K,
  members: M,
  fallback: F,
  name: string,
): t.Type<t.TypeOf<M[keyof M]> | t.TypeOf<F>, unknown, unknown> =>
  new TaggedUnionCodec(
    name,
    (u): u is t.TypeOf<M[keyof M]> | t.TypeOf<F> => {
      const key = tagOf(u, tag);
      const member = key === undefined ? undefined : members[key];
      return member !== undefined ? member.is(u) : fallback.is(u);
    },
    (u, c) => {
      const key = tagOf(u, tag);
      const member = key === undefined ? undefined : Object.hasOwn(members, key) ? members[key] : undefined;
      return member !== undefined ? member.validate(u, c) : fallback.validate(u, c);
    },
    (a) => {
      const key = tagOf(a, tag);
      const member = key === undefined ? undefined : members[key];
      return member !== undefined ? member.encode(a) : fallback.encode(a);
    },
    tag,
    members,
    fallback,
  );

const tagOf = (u: unknown, tag: string): string | undefined => {
  if (typeof u !== 'object' || u === null) return undefined;
  const value = (u as Record<string, unknown>)[tag];
  return typeof value === 'string' ? value : undefined;
};
