import * as t from 'io-ts';

export interface NonNegativeIntegerBrand {
  readonly NonNegativeInteger: unique symbol;
}
export const NonNegativeInteger = t.brand(
  t.number,
  (n): n is t.Branded<number, NonNegativeIntegerBrand> => Number.isSafeInteger(n) && n >= 0,
  'NonNegativeInteger',
);
export type NonNegativeInteger = t.TypeOf<typeof NonNegativeInteger>;

export interface PositiveIntegerBrand {
  readonly PositiveInteger: unique symbol;
}
export const PositiveInteger = t.brand(
  t.number,
  (n): n is t.Branded<number, PositiveIntegerBrand> => Number.isSafeInteger(n) && n >= 1,
  'PositiveInteger',
);
export type PositiveInteger = t.TypeOf<typeof PositiveInteger>;

export interface NonEmptyStringBrand {
  readonly NonEmptyString: unique symbol;
}
export const NonEmptyString = t.brand(
  t.string,
  (s): s is t.Branded<string, NonEmptyStringBrand> => s.length > 0,
  'NonEmptyString',
);
export type NonEmptyString = t.TypeOf<typeof NonEmptyString>;

/** Epoch milliseconds; wall clock, so not monotonic. */
export const EpochMillis = t.number;
