import type { EventStore, KnownRevision, ReadStreamOptions, RecordedEvent, StreamName } from '@teamlog/store';
import { HookedStore } from './hooked-store';

/** A real store that counts the stream reads its users start, and can be told it cannot know heads (a server store). */
export class CountingStore extends HookedStore {
  readonly reads: StreamName[] = [];
  knowsHeads = true;

  constructor(inner: EventStore) {
    super(inner);
  }

  override readStream(stream: StreamName, options?: ReadStreamOptions): AsyncIterable<RecordedEvent> {
    this.reads.push(stream);
    return super.readStream(stream, options);
  }

  override knownRevision(stream: StreamName): KnownRevision | undefined {
    return this.knowsHeads ? super.knownRevision(stream) : undefined;
  }
}
