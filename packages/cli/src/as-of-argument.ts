import { type Either, left, right } from 'fp-ts/Either';
import type { AsOf } from '@teamlog/projections';
import { formatPosition, parsePosition } from '@teamlog/store';
import { usageError, type UsageError } from './cli-errors';

/** An ISO 8601 date, with or without a time (`2026-08-01`, `2026-08-01T12:00:00Z`). */
const isoDate = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * `--as-of`: digits are a `$all` position (`commit/prepare`, or one number when both are equal,
 * as in SQLite); an ISO 8601 date or time is a moment of the logs' wall clock.
 */
export const parseAsOf = (text: string, command: string): Either<UsageError, AsOf> => {
  const position = parsePosition(text);
  if (position !== undefined) return right({ position });
  if (isoDate.test(text.trim())) {
    const time = Date.parse(text.trim());
    if (!Number.isNaN(time)) return right({ time });
  }
  return left(
    usageError(
      `${command}: --as-of expects a position (12345 or 12345/12345) or an ISO 8601 time (2026-08-01T12:00:00Z), got "${text}"`,
      command,
    ),
  );
};

/** How the document and the summary state the moment. */
export const describeAsOf = (asOf: AsOf): string =>
  'position' in asOf
    ? formatPosition(asOf.position)
    : new Date(typeof asOf.time === 'number' ? asOf.time : asOf.time.getTime()).toISOString();

/** The `--as-of` flag's value, if given; a malformed one is a usage error. */
export const asOfOption = (text: string | undefined, command: string): AsOf | undefined => {
  if (text === undefined) return undefined;
  const parsed = parseAsOf(text, command);
  if (parsed._tag === 'Left') throw parsed.left;
  return parsed.right;
};
