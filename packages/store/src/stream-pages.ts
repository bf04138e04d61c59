import type { ReadStreamOptions } from './event-store';

/** One page of a stream's rows, in the read's order: forwards, from revision `from` up to `last`; backwards, from `from` down; at most `count`. */
export type StreamPageReader<R> = (
  direction: 'forwards' | 'backwards',
  from: bigint,
  last: bigint,
  count: number,
) => Promise<readonly R[]> | readonly R[];

/**
 * What `readStream` reads of a stream whose last revision is `last`, as pages of at most
 * `pageSize` rows (a store with a database reads a long stream a page at a time). Like
 * EventStoreDB: forwards from 'end' reads nothing; backwards from past the end starts at the end.
 */
export async function* streamPages<R>(
  last: bigint,
  options: ReadStreamOptions,
  pageSize: number,
  revisionOf: (row: R) => bigint,
  page: StreamPageReader<R>,
): AsyncGenerator<readonly R[]> {
  const direction = options.direction ?? 'forwards';
  let remaining = options.maxCount ?? Number.POSITIVE_INFINITY;
  const from = options.from ?? (direction === 'forwards' ? 'start' : 'end');
  const forwards = direction === 'forwards';
  let next =
    from === 'start' ? 0n : from === 'end' ? (forwards ? last + 1n : last) : !forwards && from > last ? last : from;
  while (remaining > 0 && (forwards ? next <= last : next >= 0n)) {
    const rows = await page(direction, next, last, Math.min(pageSize, remaining));
    if (rows.length === 0) return;
    remaining -= rows.length;
    next = revisionOf(rows[rows.length - 1] as R) + (forwards ? 1n : -1n);
    yield rows;
  }
}
