import * as t from 'io-ts';
import { type Either, isLeft, left, right } from 'fp-ts/Either';
import { formatValidationErrors } from '@teamlog/events';
import { type HttpError, badQuery } from './http-errors';

/** The query parameters a route takes: each decoded from its string by an io-ts codec. */
export interface QuerySpec<R extends t.Props, O extends t.Props> {
  readonly required: R;
  readonly optional: O;
  readonly codec: t.Decoder<unknown, t.TypeOfProps<R> & t.TypeOfPartialProps<O>>;
}

export type QueryOf<S> = S extends QuerySpec<infer R, infer O> ? t.TypeOfProps<R> & t.TypeOfPartialProps<O> : never;

export const querySpec = <R extends t.Props = {}, O extends t.Props = {}>(
  required: R,
  optional: O,
): QuerySpec<R, O> => ({
  required,
  optional,
  codec: t.intersection([t.type(required), t.partial(optional)]),
});

export const parameterNames = (spec: QuerySpec<t.Props, t.Props>): string[] => [
  ...Object.keys(spec.required),
  ...Object.keys(spec.optional),
];

const takes = (names: readonly string[]): string =>
  names.length === 0 ? 'this route takes no parameters' : `this route takes ${names.join(', ')}`;

/**
 * Decode a query string strictly: an unknown, repeated or missing parameter is refused as well as a
 * malformed one, so a typo never silently widens a filter.
 */
export const decodeQuery = <R extends t.Props, O extends t.Props>(
  spec: QuerySpec<R, O>,
  params: URLSearchParams,
): Either<HttpError, t.TypeOfProps<R> & t.TypeOfPartialProps<O>> => {
  const names = parameterNames(spec);
  const raw: Record<string, string> = {};
  for (const [key, value] of params) {
    if (!names.includes(key)) return left(badQuery(key, `unknown parameter; ${takes(names)}`));
    if (key in raw) return left(badQuery(key, 'given more than once'));
    raw[key] = value;
  }
  const missing = Object.keys(spec.required).find((key) => !(key in raw));
  if (missing !== undefined) return left(badQuery(missing, 'missing; this route requires it'));
  const decoded = spec.codec.decode(raw);
  if (isLeft(decoded)) {
    const { path, message } = formatValidationErrors(decoded.left);
    return left(badQuery(path, message));
  }
  return right(decoded.right);
};
