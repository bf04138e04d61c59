import type { AppendOptions, AppendSettled, EventToAppend, KnownRevision, StreamName } from '@teamlog/store';
import { CountingStore } from './counting-store';

/**
 * A counting store that settles appends itself (appendToStreamSettled), as the SQLite store does,
 * and counts those appends. `stale`: heads it answers for a stream until an append to it fails, to
 * stage a fold that believes it is current while another writer got there first.
 */
export class SettlingStore extends CountingStore {
  settledAppends = 0;
  readonly stale = new Map<StreamName, KnownRevision | undefined>();

  override knownRevision(stream: StreamName): KnownRevision | undefined {
    return this.stale.has(stream) ? this.stale.get(stream) : super.knownRevision(stream);
  }

  appendToStreamSettled<R>(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions,
    settled: AppendSettled<R>,
  ): Promise<R> {
    this.settledAppends += 1;
    return this.appendToStream(stream, events, options).then(
      (result) => settled.committed(result),
      (error: unknown) => {
        this.stale.delete(stream);
        return settled.failed(error);
      },
    );
  }
}
