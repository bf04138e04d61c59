import * as t from 'io-ts';
import { strictObject } from '@teamlog/events';

type StrictA<R extends t.Props, O extends t.Props> = t.TypeOfProps<R> & t.TypeOfPartialProps<O>;
type StrictO<R extends t.Props, O extends t.Props> = t.OutputOfProps<R> & t.OutputOfPartialProps<O>;

/**
 * `strictObject` of @teamlog/events (unknown keys refused, not stripped), keeping its required and
 * optional props readable so a JSON Schema can be generated from the same codec that validates.
 */
export class StrictObjectType<R extends t.Props, O extends t.Props> extends t.Type<
  StrictA<R, O>,
  StrictO<R, O>,
  unknown
> {
  readonly _tag = 'StrictObjectType' as const;

  constructor(
    readonly required: R,
    readonly optional: O,
    name: string,
  ) {
    const codec = strictObject(required, optional, name);
    super(name, codec.is, codec.validate, codec.encode);
  }
}

export const strictObjectType = <R extends t.Props, O extends t.Props = {}>(
  required: R,
  optional: O = {} as O,
  name = 'StrictObject',
): StrictObjectType<R, O> => new StrictObjectType(required, optional, name);
