import type { FormatVersion, JsonObject, JsonValue } from '@teamlog/events';
import type { LogicalEvent } from './logical-event';
import { packChunkRuns } from './packed-row-packer';
import { compressSeqRanges } from './seq-range-codec';

/**
 * Range compression of `sourceEventSeqs`: V1 and later writers compress; the V0 logs we hold
 * (release 0.1.0-rc.8) store plain lists, which every reader accepts, so V0 is written plain.
 */
export const compressesSeqRanges = (formatVersion: FormatVersion): boolean => formatVersion >= 1;

/**
 * One event as a line object, keys in the writer's order (type, seq, time, data, ignorable,
 * sourceEventSeqs, surfaceOp, then unknown keys); no seq/time for a normalised fixture.
 */
export const encodeEventLine = (
  event: LogicalEvent,
  formatVersion: FormatVersion,
  normalised: boolean,
): JsonObject => ({
  type: event.type,
  ...(normalised ? {} : { seq: event.seq, time: event.time }),
  data: event.data,
  ...(event.ignorable === undefined ? {} : { ignorable: event.ignorable }),
  ...(event.sourceEventSeqs === undefined
    ? {}
    : {
        sourceEventSeqs: (compressesSeqRanges(formatVersion)
          ? compressSeqRanges(event.sourceEventSeqs)
          : [...event.sourceEventSeqs]) as JsonValue,
      }),
  ...(event.surfaceOp === undefined ? {} : { surfaceOp: event.surfaceOp as JsonValue }),
  ...(event.extra ?? {}),
});

/** A batch of events as the lines the writer of `formatVersion` stores (V0/V1 re-pack chunk runs). */
export const encodeBatch = (
  events: readonly LogicalEvent[],
  formatVersion: FormatVersion,
  normalised: boolean,
): JsonObject[] => {
  if (formatVersion > 1 || normalised) return events.map((event) => encodeEventLine(event, formatVersion, normalised));
  return packChunkRuns(events).map((record) =>
    record.kind === 'row' ? record.row : encodeEventLine(record.event, formatVersion, normalised),
  );
};
