import { JsonObject, JsonValue, PackedRowType, SurfaceOp } from '@teamlog/events';

/**
 * One session event as a reader sees it: packed rows expanded, `sourceEventSeqs` ranges
 * expanded, unknown envelope keys kept in `extra`, and the packed row kind it came from.
 */
export interface LogicalEvent {
  readonly type: string;
  readonly seq: number;
  /** Epoch ms; 0 for a normalised snapshot fixture, which has no time. */
  readonly time: number;
  readonly data: JsonValue;
  readonly ignorable?: true;
  readonly surfaceOp?: SurfaceOp;
  readonly sourceEventSeqs?: readonly number[];
  readonly extra?: JsonObject;
  readonly packed?: PackedRowType;
}

/** The envelope keys the reference defines; any other key of an event line goes to `extra`. */
export const envelopeKeys: ReadonlySet<string> = new Set(['type', 'seq', 'time', 'data', 'ignorable', 'surfaceOp', 'sourceEventSeqs']);
