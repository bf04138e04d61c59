import * as t from 'io-ts';

/** A codec with the sentence a model reads about it; validates exactly as the codec it wraps. */
export class DescribedType<C extends t.Mixed> extends t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
  readonly _tag = 'DescribedType' as const;

  constructor(
    readonly type: C,
    readonly description: string,
  ) {
    super(type.name, type.is, type.validate, type.encode);
  }
}

export const described = <C extends t.Mixed>(type: C, description: string): DescribedType<C> =>
  new DescribedType(type, description);
