import { isLeft } from 'fp-ts/Either';
import {
  type CatalogEventType,
  DecodeError,
  type SessionId,
  type StreamEvent,
  type WritableEvent,
  checkedStreamEvent,
  decodeCatalogEvent,
  isCatalogEventType,
  isTeamRecordType,
  streamEvent,
  teamIdOf,
} from '@teamlog/events';
import {
  type SessionStreamState,
  type TeamAccumulator,
  type TeamStreamState,
  evolveSessionStream,
  accumulateTeam,
  initialSessionStreamState,
  initialTeamAccumulator,
} from '@teamlog/domain';
import { type EventStore, type ExpectedRevision, type StreamName, sessionStream, isStoreError } from '@teamlog/store';
import { TeamLogError } from './team-log-errors';

/**
 * One session stream, folded once: every event read or appended moves both what the stream says
 * about its session (lifecycle, inbox, loop) and, on a Lead's stream, about its team (roster and
 * tasks). Kept up to date by reading only what was appended since, and nothing at all when the
 * store can tell nothing was. Callers hold the stream's lock while catching up and deciding: the
 * session fold is linear (its inbox is updated in place).
 */
export class FoldedStream {
  readonly streamName: StreamName;
  private sessionState: SessionStreamState;
  /** Made on the first Team record or the first look: most streams are not a Lead's. */
  private teamState: TeamAccumulator | undefined;
  private revision: bigint | undefined;

  constructor(readonly sessionId: SessionId) {
    this.streamName = sessionStream(sessionId);
    this.sessionState = initialSessionStreamState();
  }

  get session(): SessionStreamState {
    return this.sessionState;
  }

  /** The team whose Lead this stream's session is (empty when it is not a Lead). */
  get team(): TeamStreamState {
    return { team: this.teamOf(), revision: this.sessionState.revision };
  }

  /** The team's roster and tasks alone (what a send routes by), without the state object `team` makes. */
  get roster(): TeamAccumulator {
    return this.teamOf();
  }

  /** What an append that builds on this state must expect. */
  get expectedRevision(): ExpectedRevision {
    return this.revision ?? 'no_stream';
  }

  /**
   * Nothing was appended since the last catch-up, as far as the store can tell without reading.
   * For a write that is enough (the expected revision catches a head it did not know of); a read
   * that must show what another process already committed (`seeOthers`) trusts the store's head
   * only when its heads cover other writers at once (SQLite), not when they wait for a
   * notification (PostgreSQL).
   */
  isCurrent(store: EventStore, seeOthers = false): boolean {
    if (seeOthers && store.knownRevisionCovers !== 'immediate') return false;
    const known = store.knownRevision(this.streamName);
    return known !== undefined && known.revision === this.revision;
  }

  /**
   * Fold events this process appended with the state's expected revision; `lastRevision` is the
   * revision the store gave the last of them. They were checked against their codecs before the
   * append, so they are folded as they are, neither read back nor decoded again.
   */
  applyAppended(events: readonly WritableEvent[], lastRevision: bigint): void {
    const next = this.revision === undefined ? 0n : this.revision + 1n;
    // One event (a send's) needs no count: every bigint sum is an allocation.
    const first = events.length === 1 ? lastRevision : lastRevision - BigInt(events.length) + 1n;
    if (first !== next) {
      throw new RangeError(
        `${this.streamName}: appended events end at revision ${lastRevision}, which does not follow the folded revision ${this.revision ?? 'none'}`,
      );
    }
    for (let index = 0; index < events.length; index += 1)
      this.evolve(checkedStreamEvent(events[index] as WritableEvent, Number(first) + index));
    this.revision = lastRevision;
  }

  /** Fold what was appended since the last catch-up: nothing when `isCurrent` says so, else a read of the store. */
  async catchUp(store: EventStore, seeOthers = false): Promise<void> {
    if (this.isCurrent(store, seeOthers)) return;
    const from = this.revision === undefined ? 'start' : this.revision + 1n;
    try {
      for await (const recorded of store.readStream(this.streamName, { from })) {
        const event = streamEvent(recorded.type, Number(recorded.revision), recorded.data);
        // Team records are judged by the Team fold (a bad one is the team's failure, not a read error).
        if (!event.catalog && isCatalogEventType(event.type) && !isTeamRecordType(event.type))
          throw this.corrupt(event.type, recorded.revision, recorded.data);
        this.evolve(event);
        // Only past an event that was folded: a corrupt one is met again by every read.
        this.revision = recorded.revision;
      }
    } catch (error) {
      if (!isStoreError(error, 'StreamNotFound')) throw error;
    }
  }

  private evolve(event: StreamEvent): void {
    this.sessionState = evolveSessionStream(this.sessionState, event);
    if (isTeamRecordType(event.type)) this.teamState = accumulateTeam(this.teamOf(), event);
  }

  private teamOf(): TeamAccumulator {
    this.teamState ??= initialTeamAccumulator(teamIdOf(this.sessionId));
    return this.teamState;
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
