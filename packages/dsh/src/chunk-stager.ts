import type { EventToAppend, StagedAppends, StreamName } from '@teamlog/store';

/**
 * Stages the validated tail of one session stream into an import's unit, chunk after chunk, each
 * expecting the revision the previous one leads to. Nothing is visible until the unit commits;
 * the first expectation (the revision the validating read compared up to) is checked then, so a
 * concurrent writer of the stream makes the whole import fail instead of interleaving.
 */
export class ChunkStager {
  private expected: bigint | 'no_stream';
  private count = 0;

  constructor(
    private readonly unit: StagedAppends,
    private readonly stream: StreamName,
    alreadyStored: number,
  ) {
    this.expected = alreadyStored === 0 ? 'no_stream' : BigInt(alreadyStored - 1);
  }

  /** Events staged so far. */
  get staged(): number {
    return this.count;
  }

  async stage(events: readonly EventToAppend[]): Promise<void> {
    if (events.length === 0) return;
    await this.unit.append(this.stream, events, { expectedRevision: this.expected });
    this.expected = (this.expected === 'no_stream' ? -1n : this.expected) + BigInt(events.length);
    this.count += events.length;
  }
}
