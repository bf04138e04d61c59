import { assertValidBatch } from './append-rules';
import type { AppendOptions, EventToAppend } from './event-store';
import { type StagedStream, StagingLedger } from './staged-appends';
import { stagedAppendsTooLarge } from './store-errors';
import type { StreamName } from './stream-name';

/** How a store keeps a staged event until its commit, and the bytes it counts against the unit's bound. */
export interface StagedEncoding<E> {
  readonly encode: (event: EventToAppend) => E;
  readonly bytes: (encoded: E) => number;
}

/** One stream of a unit at its commit: the ledger's entry and its encoded events, in staging order. */
export interface StagedStreamEvents<E> extends StagedStream {
  readonly encoded: readonly E[];
}

/**
 * The part of a unit of staged appends that PostgreSQL and EventStoreDB share: the events wait in
 * memory, encoded, until the commit, at most `maxBytes` of them; past that the unit is over,
 * drops what it held and throws StagedAppendsTooLarge (nothing was written).
 */
export class InMemoryStaging<E> {
  private readonly ledger = new StagingLedger();
  private readonly byStream = new Map<StreamName, E[]>();
  private bytes = 0;

  /** `store` names the store in the StagedAppendsTooLarge message. */
  constructor(
    private readonly maxBytes: number,
    private readonly store: string,
    private readonly encoding: StagedEncoding<E>,
  ) {}

  /** Validate, encode and keep a batch (throws InvalidAppend as StagingLedger.stage does). */
  stage(stream: StreamName, events: readonly EventToAppend[], options?: AppendOptions): void {
    assertValidBatch(stream, events);
    const encoded = events.map((event) => this.encoding.encode(event));
    const added = encoded.reduce((sum, event) => sum + this.encoding.bytes(event), 0);
    if (this.bytes + added > this.maxBytes) {
      if (!this.ledger.finished) this.ledger.finish();
      this.byStream.clear();
      throw stagedAppendsTooLarge(
        this.maxBytes,
        `${this.ledger.events + events.length} events staged for ${this.store}, which keeps a unit in memory until its commit`,
      );
    }
    this.ledger.stage(stream, events.length, options);
    this.bytes += added;
    const staged = this.byStream.get(stream) ?? [];
    for (const event of encoded) staged.push(event);
    this.byStream.set(stream, staged);
  }

  /** Ends the unit for its commit (InvalidAppend if it is already over) and hands over its streams, keeping nothing. */
  take(): StagedStreamEvents<E>[] {
    this.ledger.finish();
    const streams = this.ledger.streams.map((staged) => ({
      ...staged,
      encoded: this.byStream.get(staged.stream) ?? [],
    }));
    this.byStream.clear();
    return streams;
  }

  /** Ends the unit without a commit; a unit already over has nothing to drop. */
  abort(): void {
    if (this.ledger.finished) return;
    this.ledger.finish();
    this.byStream.clear();
  }
}
