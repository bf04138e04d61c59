import type * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { formatValidationErrors } from '@teamlog/events';
import { ProjectionError } from './projection-errors';

export type ViewRow = Record<string, unknown>;

/** Checks persisted view rows with their io-ts codecs; a bad row is a CorruptViewRow naming file, table, row and field path. */
export class ViewRowDecoder {
  constructor(private readonly file: string) {}

  decode<A>(codec: t.Decoder<unknown, A>, value: unknown, table: string, row: string): A {
    const decoded = codec.decode(value);
    if (isLeft(decoded)) {
      const { path, message } = formatValidationErrors(decoded.left);
      throw this.corrupt(table, row, `${path}: ${message}`);
    }
    return decoded.right;
  }

  parse(json: unknown, table: string, row: string): unknown {
    try {
      return JSON.parse(String(json));
    } catch (error) {
      throw this.corrupt(table, row, `not JSON: ${(error as Error).message}`);
    }
  }

  corrupt(table: string, row: string, detail: string): ProjectionError {
    return new ProjectionError({ code: 'CorruptViewRow', file: this.file, table, row, detail });
  }
}

/** An SQLite integer as a number (the store's connection reads integers as bigint); anything else as it is, for the codec to refuse. */
export const sqlNumber = (value: unknown): unknown => (typeof value === 'bigint' ? Number(value) : value);

/** An SQLite 0/1 column as a boolean; anything else as it is, for the codec to refuse. */
export const sqlBoolean = (value: unknown): unknown => {
  const number = sqlNumber(value);
  return number === 1 ? true : number === 0 ? false : number;
};
