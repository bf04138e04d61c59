import { isLeft } from 'fp-ts/Either';
import {
  type CatalogEventType,
  DecodeError,
  type SessionId,
  type WritableEvent,
  checkedStreamEvent,
  decodeCatalogEvent,
  isCatalogEventType,
  isTeamRecordType,
  streamEvent,
} from '@teamlog/events';
import type { Decider } from '@teamlog/domain';
import { type EventStore, type ExpectedRevision, type StreamName, StreamNotFound } from '@teamlog/store';
import type { AppendJournal } from './append-journal';
import { TeamLogError } from './team-log-errors';

/** What a fold needs of an aggregate: how to evolve its state, where to start, which types it reads. */
export type FoldOf<S> = Pick<Decider<unknown, unknown, S>, 'evolve' | 'initialState' | 'reads'>;

/**
 * One session stream folded by an aggregate's decider, kept up to date by reading only what was
 * appended since, and nothing at all when the store can tell nothing was. Callers hold the
 * stream's lock while catching up and deciding: folds may be linear.
 */
export class FoldedStream<S> {
  private current: S;
  private revision: bigint | undefined;

  constructor(
    readonly streamName: StreamName,
    session: SessionId,
    private readonly fold: FoldOf<S>,
  ) {
    this.current = fold.initialState(session);
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
   * revision the store gave the last of them. They were checked against their codecs before the
   * append, so they are folded as they are, neither read back nor decoded again.
   */
  applyAppended(events: readonly WritableEvent[], lastRevision: bigint): void {
    const first = lastRevision - BigInt(events.length) + 1n;
    if (first !== (this.revision === undefined ? 0n : this.revision + 1n)) {
      throw new RangeError(
        `${this.streamName}: appended events end at revision ${lastRevision}, which does not follow the folded revision ${this.revision ?? 'none'}`,
      );
    }
    events.forEach((event, index) => {
      this.current = this.fold.evolve(this.current, checkedStreamEvent(event, Number(first) + index));
    });
    this.revision = lastRevision;
  }

  /**
   * Fold what was appended since the last catch-up: nothing when the store knows nothing was, the
   * journal's copy when this engine wrote all of it, else a read of the store.
   */
  async catchUp(store: EventStore, journal?: AppendJournal): Promise<void> {
    const known = store.knownRevision(this.streamName);
    if (known !== undefined && known.revision === this.revision) return;
    if (known?.revision !== undefined && journal !== undefined && this.foldJournal(journal, known.revision)) return;
    const reads = this.fold.reads ?? (() => true);
    const from = this.revision === undefined ? 'start' : this.revision + 1n;
    try {
      for await (const recorded of store.readStream(this.streamName, { from })) {
        if (reads(recorded.type)) {
          const event = streamEvent(recorded.type, Number(recorded.revision), recorded.data);
          // Team records are judged by the Team fold (a bad one is the team's failure, not a read error).
          if (!event.catalog && isCatalogEventType(event.type) && !isTeamRecordType(event.type))
            throw this.corrupt(event.type, recorded.revision, recorded.data);
          this.current = this.fold.evolve(this.current, event);
        }
        // Only past an event that was folded (or is not read): a corrupt one is met again by every read.
        this.revision = recorded.revision;
      }
    } catch (error) {
      if (!(error instanceof StreamNotFound)) throw error;
    }
  }

  private foldJournal(journal: AppendJournal, to: bigint): boolean {
    const written = journal.between(this.streamName, this.revision, to);
    if (written === undefined) return false;
    const reads = this.fold.reads ?? (() => true);
    for (const { revision, event } of written) {
      if (reads(event.type)) this.current = this.fold.evolve(this.current, checkedStreamEvent(event, Number(revision)));
      this.revision = revision;
    }
    return true;
  }

  /** Only a refused payload is decoded, to say where it is wrong. */
  private corrupt(type: CatalogEventType, revision: bigint, data: unknown): TeamLogError {
    const decoded = decodeCatalogEvent(type, data);
    return new TeamLogError({
      code: 'CorruptStreamEvent',
      streamName: this.streamName,
      revision,
      problem: isLeft(decoded) ? decoded.left : new DecodeError('data', type, 'the payload does not match its codec'),
    });
  }
}
