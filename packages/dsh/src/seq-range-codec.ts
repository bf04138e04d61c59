import { type Either, left, right } from 'fp-ts/Either';
import { DecodeError } from '@teamlog/events';

export type PhysicalSeqReference = number | readonly [number, number];

const invalid = (path: string, detail: string): Either<DecodeError, never> =>
  left(new DecodeError(path, 'earlier unique seqs', detail));

/**
 * Expand physical `sourceEventSeqs` (a run of three or more stored as `[start, end]`), checking
 * what docs/rules.md#source-event-seqs requires: unique values, each below the event's own seq, and strictly
 * increasing when ranges were used.
 */
export const expandSeqRanges = (
  physical: readonly PhysicalSeqReference[],
  ownSeq: number,
): Either<DecodeError, readonly number[]> => {
  const output: number[] = [];
  let hasRange = false;
  for (const [index, entry] of physical.entries()) {
    const path = `sourceEventSeqs[${index}]`;
    if (typeof entry === 'number') {
      output.push(entry);
      continue;
    }
    const [start, end] = entry;
    if (start > end) return invalid(path, `range [${start}, ${end}] runs backwards`);
    if (end >= ownSeq)
      return invalid(
        path,
        `range [${start}, ${end}] reaches seq ${end}, not earlier than the event's own seq ${ownSeq}`,
      );
    // Unique earlier seqs can never outnumber the event's own seq; this also bounds the expansion.
    if (end - start + 1 > ownSeq - output.length)
      return invalid(path, `range [${start}, ${end}] holds more seqs than precede the event`);
    for (let seq = start; seq <= end; seq += 1) output.push(seq);
    hasRange = true;
  }
  const seen = new Set<number>();
  for (const [index, seq] of output.entries()) {
    if (seq >= ownSeq)
      return invalid('sourceEventSeqs', `seq ${seq} is not earlier than the event's own seq ${ownSeq}`);
    if (seen.has(seq)) return invalid('sourceEventSeqs', `seq ${seq} appears twice`);
    if (hasRange && index > 0 && seq <= (output[index - 1] as number))
      return invalid('sourceEventSeqs', 'a list with ranges must be strictly increasing');
    seen.add(seq);
  }
  return right(output);
};

/** Compress as the writer does: only strictly increasing lists, runs of three or more become pairs. */
export const compressSeqRanges = (values: readonly number[]): PhysicalSeqReference[] => {
  if (values.some((value, index) => index > 0 && value <= (values[index - 1] as number))) return [...values];
  const output: PhysicalSeqReference[] = [];
  for (let index = 0; index < values.length; index += 1) {
    const start = values[index] as number;
    let end = start;
    while (index + 1 < values.length && values[index + 1] === end + 1) {
      index += 1;
      end += 1;
    }
    if (end - start >= 2) output.push([start, end]);
    else if (end === start) output.push(start);
    else output.push(start, end);
  }
  return output;
};
