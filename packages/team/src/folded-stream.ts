import { isLeft } from 'fp-ts/Either';
import { decodeSessionEvent, isTeamRecordType } from '@teamlog/events';
import { EventStore, ExpectedRevision, StreamName, StreamNotFound } from '@teamlog/store';
import { CorruptStreamEvent } from './team-log-errors';

export interface FoldEvent {
  readonly type: string;
  readonly seq: number;
  readonly data: unknown;
}

/**
 * One stream folded into a state, kept up to date by reading only what was appended since.
 * Callers hold the stream's lock while catching up and deciding: folds may be linear.
 */
export class FoldedStream<S> {
  private current: S;
  private revision: bigint | undefined;

  constructor(
    readonly streamName: StreamName,
    initial: S,
    private readonly evolve: (state: S, event: FoldEvent) => S,
    /** Event types the fold reads; others are passed over unread (neither decoded nor folded). */
    private readonly reads: (type: string) => boolean = () => true,
  ) {
    this.current = initial;
  }

  get state(): S {
    return this.current;
  }

  /** What an append that builds on this state must expect. */
  get expectedRevision(): ExpectedRevision {
    return this.revision ?? 'no_stream';
  }

  get exists(): boolean {
    return this.revision !== undefined;
  }

  /**
   * Fold events this process appended with the state's expected revision; `lastRevision` is the
   * revision the store gave the last of them. The events were checked against their codecs before
   * the append, so they are not decoded again.
   */
  applyAppended(events: readonly { readonly type: string; readonly data: unknown }[], lastRevision: bigint): void {
    const first = lastRevision - BigInt(events.length) + 1n;
    if (first !== (this.revision === undefined ? 0n : this.revision + 1n)) {
      throw new RangeError(`${this.streamName}: appended events end at revision ${lastRevision}, which does not follow the folded revision ${this.revision ?? 'none'}`);
    }
    events.forEach((event, index) => {
      this.current = this.evolve(this.current, { type: event.type, seq: Number(first) + index, data: event.data });
    });
    this.revision = lastRevision;
  }

  async catchUp(store: EventStore): Promise<void> {
    const from = this.revision === undefined ? 'start' : this.revision + 1n;
    try {
      for await (const recorded of store.readStream(this.streamName, { from })) {
        if (!this.reads(recorded.type)) {
          this.revision = recorded.revision;
          continue;
        }
        // Team records are judged by the Team fold (a bad one is the team's failure, not a read error).
        if (!isTeamRecordType(recorded.type)) {
          const decoded = decodeSessionEvent(recorded.type, recorded.data);
          if (isLeft(decoded)) throw new CorruptStreamEvent(this.streamName, recorded.revision, decoded.left);
        }
        this.current = this.evolve(this.current, { type: recorded.type, seq: Number(recorded.revision), data: recorded.data });
        this.revision = recorded.revision;
      }
    } catch (error) {
      if (!(error instanceof StreamNotFound)) throw error;
    }
  }
}
