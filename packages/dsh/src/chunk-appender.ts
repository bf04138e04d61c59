import { EventStore, EventToAppend, StreamName } from '@teamlog/store';

/**
 * Appends the validated tail of one session stream, chunk after chunk, each append expecting the
 * revision the previous one left (a concurrent writer makes it fail instead of interleaving).
 * Each append is atomic in the store, so a crash leaves a prefix of whole chunks.
 */
export class ChunkAppender {
  private expected: bigint | 'no_stream';
  private count = 0;

  constructor(
    private readonly store: EventStore,
    private readonly stream: StreamName,
    alreadyStored: number,
  ) {
    this.expected = alreadyStored === 0 ? 'no_stream' : BigInt(alreadyStored - 1);
  }

  /** Events appended so far. */
  get appended(): number {
    return this.count;
  }

  async append(events: readonly EventToAppend[]): Promise<void> {
    const result = await this.store.appendToStream(this.stream, events, { expectedRevision: this.expected });
    this.expected = result.nextExpectedRevision;
    this.count += events.length;
  }
}
