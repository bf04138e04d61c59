import type { JsonValue, SurfaceOp } from '@teamlog/events';
import type { LogicalEvent } from './logical-event';

/**
 * Event types whose data no view reads (their type, seq, the codec's verdict and the metadata's
 * time are all a fold reads of them): a store that keeps no payload takes them from a line
 * checked on its bytes, without parsing it (event-line-scan.ts). Most of a conversation's bytes
 * are these. A fold that starts reading their data fails with `dataLetGo`.
 */
export const datalessEventTypes: readonly string[] = ['assistant/message', 'tool/call', 'tool/result', 'step/end'];

/** The data of a line checked on its bytes was never parsed: reading it is a bug. */
const dataLetGo = (type: string, seq: number): Error =>
  new Error(
    `the data of ${type} event ${seq} was checked on its bytes and not kept (a store that keeps no payload; see datalessEventTypes)`,
  );

/** The envelope of an event line checked on its bytes: everything the line holds but its data. */
export class DatalessEvent implements LogicalEvent {
  constructor(
    readonly type: string,
    readonly seq: number,
    readonly time: number,
    readonly ignorable: true | undefined,
    readonly surfaceOp: SurfaceOp | undefined,
    readonly sourceEventSeqs: readonly number[] | undefined,
  ) {}

  get data(): JsonValue {
    throw dataLetGo(this.type, this.seq);
  }
}
