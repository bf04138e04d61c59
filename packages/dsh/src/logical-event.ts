import type { JsonObject, PackedRowType, SessionEventEnvelope } from '@teamlog/events';

/**
 * One session event as a reader sees it: packed rows expanded, `sourceEventSeqs` ranges
 * expanded, unknown envelope keys kept in `extra`, and the packed row kind it came from.
 */
export interface LogicalEvent extends SessionEventEnvelope {
  /** `time` is 0 for a normalised snapshot fixture, which has no time. */
  readonly extra?: JsonObject;
  readonly packed?: PackedRowType;
}

/** The envelope keys the format defines (docs/rules.md#envelope); any other key of an event line goes to `extra`. */
export const envelopeKeys: ReadonlySet<string> = new Set([
  'type',
  'seq',
  'time',
  'data',
  'ignorable',
  'surfaceOp',
  'sourceEventSeqs',
]);

/**
 * `envelopeKeys.has(key)` as comparisons: the reader asks it of every key of every line, and a
 * parsed line's keys compare with these constants faster than they hash into the set.
 */
export const isEnvelopeKey = (key: string): boolean => {
  switch (key) {
    case 'type':
    case 'seq':
    case 'time':
    case 'data':
    case 'ignorable':
    case 'surfaceOp':
    case 'sourceEventSeqs':
      return true;
    default:
      return false;
  }
};
